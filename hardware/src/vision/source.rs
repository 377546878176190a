//! Frame sources: a camera, a directory of images, or synthetic table frames.

use super::render::{Camera, Clean, Scene, Truth, add_noise, render_clean};
use super::{Frame, VisionError};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Anything that gives frames one after another.
pub trait FrameSource {
    /// The next frame; `Ok(None)` when the source has no more (the end of a directory or a
    /// script); an error for a source that failed (a camera unplugged, a bad file).
    fn next_frame(&mut self) -> Result<Option<Frame>, VisionError>;
}

/// Frames from image files: a directory's images in name order, or a list of paths.
///
/// Names are compared the way people count: `2.png` before `10.png`. Each frame is stamped
/// `seq × interval` (by default 1/30 s).
#[derive(Debug)]
pub struct DirSource {
    paths: VecDeque<PathBuf>,
    interval: Duration,
    seq: u64,
}

impl DirSource {
    /// Every `.png`, `.jpg` and `.jpeg` file of `dir`, in name order.
    ///
    /// # Errors
    /// [`VisionError::NoDirectory`] if `dir` cannot be listed, [`VisionError::NoImages`] if
    /// it holds no image.
    pub fn open(dir: impl AsRef<Path>) -> Result<DirSource, VisionError> {
        let dir = dir.as_ref();
        let no_dir = |reason: String| VisionError::NoDirectory {
            path: dir.to_path_buf(),
            reason,
        };
        let entries = std::fs::read_dir(dir).map_err(|e| no_dir(e.to_string()))?;
        let mut paths = Vec::new();
        for entry in entries {
            let path = entry.map_err(|e| no_dir(e.to_string()))?.path();
            let image = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "png" | "jpg" | "jpeg"));
            if image && path.is_file() {
                paths.push(path);
            }
        }
        if paths.is_empty() {
            return Err(VisionError::NoImages(dir.to_path_buf()));
        }
        paths.sort_by(|a, b| natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()));
        Ok(DirSource::from_paths(paths))
    }

    /// These files, in this order.
    pub fn from_paths(paths: impl IntoIterator<Item = PathBuf>) -> DirSource {
        DirSource {
            paths: paths.into_iter().collect(),
            interval: Duration::from_millis(33),
            seq: 0,
        }
    }

    /// Stamps frames `interval` apart.
    pub fn with_interval(mut self, interval: Duration) -> DirSource {
        self.interval = interval;
        self
    }

    /// The files not read yet.
    pub fn remaining(&self) -> impl Iterator<Item = &Path> {
        self.paths.iter().map(PathBuf::as_path)
    }
}

impl FrameSource for DirSource {
    fn next_frame(&mut self) -> Result<Option<Frame>, VisionError> {
        let Some(path) = self.paths.pop_front() else {
            return Ok(None);
        };
        let image = image::open(&path)
            .map_err(|e| VisionError::BadImage {
                path: path.clone(),
                reason: e.to_string(),
            })?
            .to_luma8();
        let seq = self.seq;
        self.seq += 1;
        Ok(Some(Frame {
            image,
            at: self
                .interval
                .saturating_mul(u32::try_from(seq).unwrap_or(u32::MAX)),
            seq,
        }))
    }
}

/// Compares names with digit runs as numbers: `a2` < `a10`.
fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    fn chunks(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        let bytes = s.as_bytes();
        for i in 1..=bytes.len() {
            if i == bytes.len() || bytes[i].is_ascii_digit() != bytes[start].is_ascii_digit() {
                out.push((bytes[start].is_ascii_digit(), &s[start..i]));
                start = i;
            }
        }
        out
    }
    let (ca, cb) = (chunks(a), chunks(b));
    for (x, y) in ca.iter().zip(&cb) {
        let ord = match (x, y) {
            ((true, x), (true, y)) => {
                let (x, y) = (x.trim_start_matches('0'), y.trim_start_matches('0'));
                x.len().cmp(&y.len()).then(x.cmp(y))
            }
            ((_, x), (_, y)) => x.cmp(y),
        };
        if ord.is_ne() {
            return ord;
        }
    }
    ca.len().cmp(&cb.len()).then(a.cmp(b))
}

/// Synthetic frames: each scene of a script rendered as a camera sees it (see
/// [`super::render`]), with fresh sensor noise every frame. A scene equal to the one before
/// is not rendered again, only re-noised, so long still stretches are cheap.
#[derive(Debug)]
pub struct RenderSource {
    camera: Camera,
    scenes: VecDeque<Scene>,
    interval: Duration,
    seq: u64,
    last: Option<(Scene, Clean)>,
}

impl RenderSource {
    /// Renders `scenes` in order, one frame each, with `camera`.
    pub fn new(camera: Camera, scenes: impl IntoIterator<Item = Scene>) -> RenderSource {
        RenderSource {
            camera,
            scenes: scenes.into_iter().collect(),
            interval: Duration::from_millis(33),
            seq: 0,
            last: None,
        }
    }

    /// Adds a scene to the end of the script.
    pub fn push(&mut self, scene: Scene) {
        self.scenes.push_back(scene);
    }

    /// The camera.
    pub fn camera(&self) -> &Camera {
        &self.camera
    }

    /// What is in the last frame given, sorted by text (empty before the first frame).
    pub fn truth(&self) -> &[Truth] {
        self.last
            .as_ref()
            .map(|(_, c)| c.truth.as_slice())
            .unwrap_or(&[])
    }
}

impl FrameSource for RenderSource {
    fn next_frame(&mut self) -> Result<Option<Frame>, VisionError> {
        let Some(scene) = self.scenes.pop_front() else {
            return Ok(None);
        };
        let same = self.last.as_ref().is_some_and(|(s, _)| *s == scene);
        if !same {
            let clean = render_clean(&scene, &self.camera);
            self.last = Some((scene.clone(), clean));
        }
        let Some((_, clean)) = &self.last else {
            return Ok(None);
        };
        let seq = self.seq;
        self.seq += 1;
        let image = add_noise(
            clean,
            &self.camera,
            scene.look.noise,
            scene.look.seed.wrapping_add(seq),
        );
        Ok(Some(Frame {
            image,
            at: self
                .interval
                .saturating_mul(u32::try_from(seq).unwrap_or(u32::MAX)),
            seq,
        }))
    }
}

/// A camera through `nokhwa` (Video4Linux on Linux), giving grey frames at the camera's
/// highest resolution. Only with the `camera` feature; without it [`CameraSource::open`]
/// says how to build with it.
pub struct CameraSource {
    #[cfg(feature = "camera")]
    camera: nokhwa::Camera,
    #[cfg(feature = "camera")]
    opened: std::time::Instant,
    #[cfg(feature = "camera")]
    seq: u64,
    #[cfg(not(feature = "camera"))]
    _none: (),
}

impl std::fmt::Debug for CameraSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CameraSource").finish_non_exhaustive()
    }
}

#[cfg(not(feature = "camera"))]
impl CameraSource {
    /// Opens camera `index` (0 for the first).
    ///
    /// # Errors
    /// Always [`VisionError::NoCameraSupport`] in this build (no `camera` feature).
    pub fn open(index: u32) -> Result<CameraSource, VisionError> {
        let _ = index;
        Err(VisionError::NoCameraSupport)
    }
}

#[cfg(not(feature = "camera"))]
impl FrameSource for CameraSource {
    fn next_frame(&mut self) -> Result<Option<Frame>, VisionError> {
        Err(VisionError::NoCameraSupport)
    }
}

#[cfg(feature = "camera")]
impl CameraSource {
    /// Opens camera `index` (0 for the first) at its highest resolution and starts the stream.
    ///
    /// # Errors
    /// [`VisionError::CameraOpen`] if there is no such camera or it cannot be started.
    pub fn open(index: u32) -> Result<CameraSource, VisionError> {
        use nokhwa::pixel_format::RgbFormat;
        use nokhwa::utils::{CameraIndex, RequestedFormat, RequestedFormatType};
        let open_err = |e: nokhwa::NokhwaError| VisionError::CameraOpen {
            index,
            reason: e.to_string(),
        };
        let format =
            RequestedFormat::new::<RgbFormat>(RequestedFormatType::AbsoluteHighestResolution);
        let mut camera =
            nokhwa::Camera::new(CameraIndex::Index(index), format).map_err(open_err)?;
        camera.open_stream().map_err(open_err)?;
        Ok(CameraSource {
            camera,
            opened: std::time::Instant::now(),
            seq: 0,
        })
    }
}

#[cfg(feature = "camera")]
impl FrameSource for CameraSource {
    fn next_frame(&mut self) -> Result<Option<Frame>, VisionError> {
        use nokhwa::pixel_format::LumaFormat;
        use nokhwa::utils::FrameFormat;
        let lost = |e: String| VisionError::CameraLost(e);
        let buffer = self.camera.frame().map_err(|e| lost(e.to_string()))?;
        let image = if buffer.source_frame_format() == FrameFormat::MJPEG {
            // Decoded by `image` (zune-jpeg), so nokhwa's C-based MJPEG decoder is not needed.
            image::load_from_memory_with_format(buffer.buffer(), image::ImageFormat::Jpeg)
                .map_err(|e| lost(format!("a bad MJPEG frame: {e}")))?
                .to_luma8()
        } else {
            let luma = buffer
                .decode_image::<LumaFormat>()
                .map_err(|e| lost(e.to_string()))?;
            image::GrayImage::from_raw(luma.width(), luma.height(), luma.into_raw())
                .ok_or_else(|| lost("a frame of the wrong size".into()))?
        };
        let seq = self.seq;
        self.seq += 1;
        Ok(Some(Frame {
            image,
            at: self.opened.elapsed(),
            seq,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::natural_cmp;

    #[test]
    fn names_sort_as_people_count() {
        let mut names = vec!["10.png", "2.png", "1.png", "a.png", "01b.png"];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(names, vec!["1.png", "01b.png", "2.png", "10.png", "a.png"]);
    }
}
