//! The camera beside the match: a named thread reads frames, finds the tags and tracks the
//! cards on the mat; the table screen takes its events and turns them into moves.
//!
//! The thread never stops the match: when the camera cannot be opened, or stops giving frames
//! (unplugged), the service says so ([`VisionStatus::Lost`]) and tries again every
//! [`RETRY`]; the players go on entering moves by hand meanwhile, and the camera is picked up
//! again when it returns. Where the frames come from is a [`Opener`]: the real camera (built
//! with the `camera` feature), a directory of recorded frames, or, in tests, rendered frames.
//!
//! ```no_run
//! use std::time::Duration;
//! use tableside::vision::{CameraChoice, VisionService};
//! use cards::core::GameId;
//! use hardware::vision::mat::MatLayout;
//!
//! let layout = MatLayout::builtin(GameId::Jaken)?;
//! let opener = CameraChoice::Frames { dir: "table-frames".into(), fps: 10 }.opener();
//! let mut vision = VisionService::start(opener, layout, None, || {});
//! std::thread::sleep(Duration::from_secs(1));
//! for event in vision.poll() {
//!     println!("{event:?}");
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use cards::decks::Registry;
use hardware::vision::detect::{Detector, DetectorConfig, ScanConfig, Scanner};
use hardware::vision::mat::MatLayout;
use hardware::vision::source::DirSource;
use hardware::vision::tracker::{EventKind, TrackEvent, Tracker, TrackerConfig};
use hardware::vision::{FrameSource, VisionError};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the thread waits before trying a lost camera again.
pub const RETRY: Duration = Duration::from_secs(2);

/// Where the frames come from (the `camera` setting of the config file).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CameraChoice {
    /// No camera: every move is entered by hand.
    #[default]
    None,
    /// A V4L2 camera by index (`/dev/video0` is 0).
    Device(u32),
    /// A directory of recorded frames, played in name order at `fps` (a recorded table, for a
    /// demonstration or to check the tracker).
    Frames {
        /// The directory.
        dir: PathBuf,
        /// Frames per second.
        fps: u32,
    },
}

impl CameraChoice {
    /// Reads the config file's `camera` value: `none`, a device path `/dev/videoN`, a device
    /// index, or `frames:<dir>[@<fps>]`.
    ///
    /// # Errors
    /// A text that is none of these, with what is accepted.
    pub fn parse(text: &str) -> Result<CameraChoice, String> {
        let t = text.trim();
        if t.is_empty() || t.eq_ignore_ascii_case("none") {
            return Ok(CameraChoice::None);
        }
        if let Some(rest) = t.strip_prefix("frames:") {
            let (dir, fps) = match rest.rsplit_once('@') {
                Some((dir, fps)) => (
                    dir,
                    fps.parse::<u32>()
                        .ok()
                        .filter(|f| (1..=240).contains(f))
                        .ok_or_else(|| format!("`{fps}` is not a frame rate (e.g. @10)"))?,
                ),
                None => (rest, 10),
            };
            return Ok(CameraChoice::Frames {
                dir: dir.into(),
                fps,
            });
        }
        let index = t.strip_prefix("/dev/video").unwrap_or(t);
        index.parse::<u32>().map(CameraChoice::Device).map_err(|_| {
            format!(
                "camera `{t}`: expected none, /dev/videoN, a camera number or frames:<dir>[@fps]"
            )
        })
    }

    /// Opens the frames, once per attempt.
    pub fn opener(&self) -> Opener {
        match self.clone() {
            CameraChoice::None => Box::new(|| Err(VisionError::NoCameraSupport)),
            CameraChoice::Device(index) => Box::new(move || {
                hardware::vision::source::CameraSource::open(index)
                    .map(|c| Box::new(c) as Box<dyn FrameSource>)
            }),
            CameraChoice::Frames { dir, fps } => Box::new(move || {
                DirSource::open(&dir).map(|d| {
                    Box::new(d.with_interval(Duration::from_secs_f64(1.0 / f64::from(fps))))
                        as Box<dyn FrameSource>
                })
            }),
        }
    }
}

/// Opens a frame source; called again after the source failed.
pub type Opener = Box<dyn FnMut() -> Result<Box<dyn FrameSource>, VisionError> + Send>;

/// What the camera is doing, for the table screen.
#[derive(Clone, Debug, PartialEq)]
pub enum VisionStatus {
    /// Opening the camera.
    Starting,
    /// Frames arrive; the mat is located when `mat` is true.
    Watching {
        /// The four corner markers are seen.
        mat: bool,
    },
    /// The camera cannot be opened or stopped giving frames; tried again every [`RETRY`].
    /// Why, in English and in Japanese.
    Lost {
        /// Why, in English.
        en: String,
        /// Why, in Japanese.
        ja: String,
    },
    /// A recording came to its end.
    Ended,
}

/// The camera lost for `e`, said in both languages.
fn lost(e: &hardware::vision::VisionError) -> VisionStatus {
    VisionStatus::Lost {
        en: e.to_string(),
        ja: e.ja(),
    }
}

enum Msg {
    Status(VisionStatus),
    Event(Box<TrackEvent>),
}

/// The camera thread and what it reported.
pub struct VisionService {
    rx: Receiver<Msg>,
    status: VisionStatus,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for VisionService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VisionService")
            .field("status", &self.status)
            .finish_non_exhaustive()
    }
}

impl VisionService {
    /// Starts the thread `tableside-vision`; `wake` is called after each report (the window
    /// repaints on it). Without a thread (the system refused one) the status says so.
    pub fn start(
        opener: Opener,
        layout: MatLayout,
        registry: Option<Registry>,
        wake: impl Fn() + Send + 'static,
    ) -> VisionService {
        let (tx, rx) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let spawned = std::thread::Builder::new()
            .name("tableside-vision".into())
            .spawn(move || run(opener, layout, registry, &flag, &tx, &wake));
        let (thread, status) = match spawned {
            Ok(handle) => (Some(handle), VisionStatus::Starting),
            Err(e) => (
                None,
                VisionStatus::Lost {
                    en: format!("cannot start the camera thread: {e}"),
                    ja: format!("カメラのスレッドを始められません: {e}"),
                },
            ),
        };
        VisionService {
            rx,
            status,
            stop,
            thread,
        }
    }

    /// The latest status.
    pub fn status(&self) -> &VisionStatus {
        &self.status
    }

    /// The card events since the last call, oldest first (the status is updated on the way).
    pub fn poll(&mut self) -> Vec<TrackEvent> {
        let mut events = Vec::new();
        loop {
            match self.rx.try_recv() {
                Ok(Msg::Status(s)) => self.status = s,
                Ok(Msg::Event(e)) => events.push(*e),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    if matches!(
                        self.status,
                        VisionStatus::Starting | VisionStatus::Watching { .. }
                    ) {
                        self.status = VisionStatus::Lost {
                            en: "the camera thread stopped".into(),
                            ja: "カメラのスレッドが止まりました".into(),
                        };
                    }
                    break;
                }
            }
        }
        events
    }
}

impl Drop for VisionService {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            // The thread checks the flag between frames and while it waits to retry.
            let _ = t.join();
        }
    }
}

/// Sleeps `d` in short steps; false when asked to stop.
fn nap(d: Duration, stop: &AtomicBool) -> bool {
    let end = Instant::now() + d;
    while Instant::now() < end {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20).min(end - Instant::now()));
    }
    !stop.load(Ordering::Relaxed)
}

fn run(
    mut opener: Opener,
    layout: MatLayout,
    registry: Option<Registry>,
    stop: &AtomicBool,
    tx: &Sender<Msg>,
    wake: &dyn Fn(),
) {
    let send = |m: Msg| {
        let ok = tx.send(m).is_ok();
        wake();
        ok
    };
    let mut tracker = Tracker::new(layout, registry, TrackerConfig::default());
    let mut scanner = Scanner::new(
        Detector::new(DetectorConfig::default()),
        ScanConfig::default(),
    );
    // Frame times go on across reconnections, so the tracker's clock never runs backwards.
    let mut offset;
    let mut last_time = 0.0_f64;
    let mut reported: Option<VisionStatus> = None;
    let mut report = |s: VisionStatus| -> bool {
        if reported.as_ref() == Some(&s) {
            return true;
        }
        reported = Some(s.clone());
        send(Msg::Status(s))
    };
    while !stop.load(Ordering::Relaxed) {
        let mut source = match opener() {
            Ok(s) => s,
            Err(e) => {
                if !report(lost(&e)) || !nap(RETRY, stop) {
                    return;
                }
                continue;
            }
        };
        scanner.reset();
        offset = last_time;
        let mut mat_found = tracker.mat().found();
        if !report(VisionStatus::Watching { mat: mat_found }) {
            return;
        }
        loop {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let frame = match source.next_frame() {
                Ok(Some(f)) => f,
                Ok(None) => {
                    let _ = report(VisionStatus::Ended);
                    return;
                }
                Err(e) => {
                    if !report(lost(&e)) || !nap(RETRY, stop) {
                        return;
                    }
                    break;
                }
            };
            let time = offset + frame.at.as_secs_f64();
            last_time = time;
            for event in tracker.update_frame(time, &frame.image, &mut scanner) {
                match event.event {
                    EventKind::MatLost => mat_found = false,
                    EventKind::MatFound => mat_found = true,
                    _ => {}
                }
                if !send(Msg::Event(Box::new(event))) {
                    return;
                }
            }
            if !report(VisionStatus::Watching { mat: mat_found }) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_camera_setting_reads_devices_recordings_and_none() {
        assert_eq!(CameraChoice::parse("none"), Ok(CameraChoice::None));
        assert_eq!(CameraChoice::parse(""), Ok(CameraChoice::None));
        assert_eq!(
            CameraChoice::parse("/dev/video2"),
            Ok(CameraChoice::Device(2))
        );
        assert_eq!(CameraChoice::parse("0"), Ok(CameraChoice::Device(0)));
        assert_eq!(
            CameraChoice::parse("frames:/tmp/x@5"),
            Ok(CameraChoice::Frames {
                dir: "/tmp/x".into(),
                fps: 5
            })
        );
        let err = CameraChoice::parse("/dev/sda").unwrap_err();
        assert!(err.contains("expected none"), "{err}");
        assert!(CameraChoice::parse("frames:/tmp/x@0").is_err());
    }
}
