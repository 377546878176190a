//! The camera side of the table: frames in, QR codes out, cards on the mat tracked.
//!
//! - [`source`]: where frames come from — a [`FrameSource`] is a camera
//!   ([`source::CameraSource`], behind the `camera` feature), a directory of images
//!   ([`source::DirSource`]) or synthetic frames ([`source::RenderSource`]).
//! - [`render`]: synthetic table frames with known truth (tagged cards, mat corner markers,
//!   hands, light, blur, noise) for tests and benchmarks.
//! - [`detect`]: the QR detector. [`detect::Detector::detect`] reads every code in one image,
//!   thoroughly; [`detect::Scanner`] follows a stream of frames cheaply (cards lie still: a code
//!   read once is re-read where it was, and only changed parts of the frame are searched).
//! - [`mat`]: a game's mat layout (size, corner markers, zones; TOML, one built in per game)
//!   and the homography from the frame to the mat from the four corner markers.
//! - [`tracker`]: per-frame detections in, debounced events out — a card seen in a zone with a
//!   rotation, moved, rotated, gone; one copy in two places; the mat lost or found.
//!
//! Detections are raw: a card tag, a mat corner marker and a foreign code (a URL) are all
//! reported with their text and corners; telling them apart ([`cards::tags::scan`]), placing
//! them on the mat and debouncing them is the [`tracker`]'s job.
//!
//! ```
//! use hardware::vision::detect::Scanner;
//! use hardware::vision::render::{table_scene, Camera};
//! use hardware::vision::source::{FrameSource, RenderSource};
//!
//! // A table of four cards and the mat's corner markers, seen by a 1280 × 720 camera; 44 mm
//! // tags are the size for that camera (36 mm for 1920 × 1080).
//! let scene = table_scene(4, 44.0, 7)?;
//! let camera = Camera::overhead(1280, 720, scene.mat_mm, 0.02, 0.04, 0.5);
//! let mut source = RenderSource::new(camera, vec![scene; 2]);
//! let mut scanner = Scanner::default();
//! while let Some(frame) = source.next_frame()? {
//!     let seen = scanner.scan(&frame.image);
//!     let texts: Vec<&str> = seen.iter().map(|d| d.text.as_str()).collect();
//!     assert!(texts.contains(&cards::tags::Corner::TopLeft.encode().as_str()), "{texts:?}");
//!     assert_eq!(seen.len(), 8);
//! }
//! # Ok::<(), hardware::vision::VisionError>(())
//! ```

pub mod detect;
pub mod geometry;
pub mod jpeg;
pub mod luma;
pub mod mat;
pub mod presence;
pub mod render;
pub mod source;
pub mod tracker;

use std::path::PathBuf;
use std::time::Duration;

pub use source::FrameSource;

/// One camera frame.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The picture, in grey levels.
    pub image: image::GrayImage,
    /// When it was taken, since the source opened.
    pub at: Duration,
    /// Its number, from 0, in the order the source gave them.
    pub seq: u64,
}

/// What goes wrong with frames.
#[derive(Debug, thiserror::Error)]
pub enum VisionError {
    /// An image directory that does not exist or cannot be listed.
    #[error("cannot read the image directory {path}: {reason}")]
    NoDirectory {
        /// The directory.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// An image directory with no image files in it.
    #[error("no image files (.png, .jpg, .jpeg) in {0}")]
    NoImages(PathBuf),
    /// An image file that cannot be read or decoded.
    #[error("cannot read the image {path}: {reason}")]
    BadImage {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A camera frame that cannot be read (a damaged MJPEG picture, a buffer of the wrong
    /// size for its format).
    #[error("a bad {format} frame: {reason}")]
    BadFrame {
        /// The frame's pixel format.
        format: String,
        /// Why.
        reason: String,
    },
    /// A text that cannot be encoded as the QR code asked for (renderer).
    #[error("cannot encode a QR code for {0}")]
    Encode(String),
    /// This build has no camera support.
    #[error(
        "this build has no camera support: build with `cargo build --features hardware/camera` \
         (needs libclang at build time, e.g. `apt-get install libclang1-14`)"
    )]
    NoCameraSupport,
    /// The camera cannot be opened (absent, busy, no permission).
    #[error("cannot open camera {index}: {reason}")]
    CameraOpen {
        /// The camera's index.
        index: u32,
        /// Why.
        reason: String,
    },
    /// The camera stopped giving frames (unplugged, or the driver failed).
    #[error("the camera stopped giving frames (unplugged?): {0}")]
    CameraLost(String),
}

impl VisionError {
    /// The same message in Japanese, for a player (the English one is its `Display`).
    #[must_use]
    pub fn ja(&self) -> String {
        let reason_ja = |reason: &str| os_reason_ja(reason);
        match self {
            Self::NoDirectory { path, reason } => {
                let reason = reason_ja(reason);
                format!("画像フォルダ {} を読めません: {reason}", path.display())
            }
            Self::NoImages(path) => {
                format!(
                    "{} に画像ファイル（.png、.jpg、.jpeg）がありません",
                    path.display()
                )
            }
            Self::BadImage { path, reason } => {
                let reason = reason_ja(reason);
                format!("画像 {} を読めません: {reason}", path.display())
            }
            Self::BadFrame { format, reason } => {
                format!("{format} のフレームが壊れています: {reason}")
            }
            Self::Encode(text) => format!("{text} を QR コードにできません"),
            Self::NoCameraSupport => "このビルドはカメラに対応していません。\
                 `cargo build --features hardware/camera` でビルドしてください\
                 （ビルド時に libclang が必要です。例: `apt-get install libclang1-14`）"
                .to_owned(),
            Self::CameraOpen { index, reason } => {
                let reason = reason_ja(reason);
                format!("カメラ {index} を開けません: {reason}")
            }
            Self::CameraLost(reason) => {
                let reason = reason_ja(reason);
                format!("カメラからフレームが届かなくなりました（抜けましたか？）: {reason}")
            }
        }
    }
}

/// An operating system's message (`No such file or directory (os error 2)`) in Japanese, for
/// the errors a camera or a frame folder gives; any other text as it is.
fn os_reason_ja(reason: &str) -> String {
    let code = reason
        .rsplit_once("(os error ")
        .and_then(|(_, rest)| rest.strip_suffix(')'))
        .and_then(|n| n.parse::<i32>().ok());
    let ja = match code {
        Some(2) => "ありません",
        Some(5) => "入出力エラー",
        Some(13) => "アクセスが許可されていません",
        Some(16) => "ほかのアプリが使用中です",
        Some(19) => "デバイスがありません",
        Some(20) => "フォルダではありません",
        Some(28) => "空き容量がありません",
        Some(30) => "読み取り専用です",
        _ => return reason.to_owned(),
    };
    format!("{ja}（{reason}）")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_folder_or_a_busy_camera_is_said_in_japanese_with_the_systems_words_kept() {
        let missing = std::fs::read_dir("/no/such/folder/here").unwrap_err();
        let e = VisionError::NoDirectory {
            path: PathBuf::from("/no/such/folder/here"),
            reason: missing.to_string(),
        };
        let ja = e.ja();
        assert!(
            ja.starts_with("画像フォルダ /no/such/folder/here を読めません: ありません"),
            "{ja}"
        );
        assert!(
            ja.contains("(os error 2)"),
            "the system's own words stay: {ja}"
        );
        let busy = VisionError::CameraOpen {
            index: 0,
            reason: std::io::Error::from_raw_os_error(16).to_string(),
        };
        assert!(
            busy.ja().contains("ほかのアプリが使用中です"),
            "{}",
            busy.ja()
        );
        // A reason that is not the system's is kept as it is.
        let other = VisionError::CameraLost("no frame for 5 s".into());
        assert!(other.ja().ends_with(": no frame for 5 s"), "{}", other.ja());
    }
}
