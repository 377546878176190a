//! Frame sources: a camera, a directory of images, or synthetic table frames.

pub use super::luma::PixelFormat;
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
        // A file that cannot be read still takes its place in time: the frames after it keep
        // their times.
        let seq = self.seq;
        self.seq += 1;
        // JPEG to luma only; a grey PNG as it is (vision::luma).
        let image = super::luma::read_file(&path)?;
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

/// One way a camera can stream: frame size, pixel format and frame rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CameraMode {
    /// Frame width in pixels.
    pub width: u32,
    /// Frame height in pixels.
    pub height: u32,
    /// How its pixels come.
    pub format: PixelFormat,
    /// Frames a second.
    pub fps: u32,
}

/// What to ask a camera for (see [`choose_mode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CameraRequest {
    /// The widest frames wanted (a larger frame costs more to read than it helps).
    pub max_width: u32,
    /// The tallest frames wanted.
    pub max_height: u32,
    /// The least frame rate wanted.
    pub min_fps: u32,
}

impl Default for CameraRequest {
    /// 1920 × 1080 at 10 frames a second or more: the setup the tags and the benchmarks are
    /// measured for (docs/vision.md).
    fn default() -> Self {
        CameraRequest {
            max_width: 1920,
            max_height: 1080,
            min_fps: 10,
        }
    }
}

/// The mode to stream in: the largest frames within the request at its frame rate or more
/// (else at the highest rate the camera has), and of those a format whose grey levels come
/// free — `GREY`, then a Y plane (`NV12` …), then `YUYV`, then `MJPEG` (decoded to luma only)
/// — then the higher rate. Frames larger than asked are taken only from a camera with nothing
/// smaller (the smallest of them). `None` for an empty list.
pub fn choose_mode(modes: &[CameraMode], request: &CameraRequest) -> Option<CameraMode> {
    let rank = |f: PixelFormat| match f {
        PixelFormat::Grey => 4,
        PixelFormat::YPlane => 3,
        PixelFormat::Yuyv | PixelFormat::Uyvy => 2,
        PixelFormat::Jpeg => 1,
    };
    let fits: Vec<CameraMode> = modes
        .iter()
        .copied()
        .filter(|m| m.width <= request.max_width && m.height <= request.max_height)
        .collect();
    if fits.is_empty() {
        let least = modes
            .iter()
            .map(|m| u64::from(m.width) * u64::from(m.height))
            .min()?;
        let smallest: Vec<CameraMode> = modes
            .iter()
            .copied()
            .filter(|m| u64::from(m.width) * u64::from(m.height) == least)
            .collect();
        return choose_mode(
            &smallest,
            &CameraRequest {
                max_width: u32::MAX,
                max_height: u32::MAX,
                ..*request
            },
        );
    }
    let fast: Vec<CameraMode> = fits
        .iter()
        .copied()
        .filter(|m| m.fps >= request.min_fps)
        .collect();
    let pool = if fast.is_empty() {
        let top = fits.iter().map(|m| m.fps).max()?;
        fits.into_iter().filter(|m| m.fps == top).collect()
    } else {
        fast
    };
    pool.into_iter().max_by_key(|m| {
        (
            u64::from(m.width) * u64::from(m.height),
            rank(m.format),
            m.fps,
        )
    })
}

/// A camera through `nokhwa` (Video4Linux on Linux), giving grey frames as they come from
/// the camera: the mode is chosen by [`choose_mode`], so a camera that streams `GREY`, `NV12`
/// or `YUYV` at the size asked gives its Y plane as it is, and an `MJPEG` stream is decoded
/// to luma only ([`super::luma`]). Only with the `camera` feature; without it
/// [`CameraSource::open`] says how to build with it.
pub struct CameraSource {
    #[cfg(feature = "camera")]
    camera: nokhwa::Camera,
    #[cfg(feature = "camera")]
    mode: CameraMode,
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
    /// Opens camera `index` (0 for the first) with the default [`CameraRequest`].
    ///
    /// # Errors
    /// Always [`VisionError::NoCameraSupport`] in this build (no `camera` feature).
    pub fn open(index: u32) -> Result<CameraSource, VisionError> {
        CameraSource::open_with(index, &CameraRequest::default())
    }

    /// Opens camera `index` in the mode [`choose_mode`] picks for `request`.
    ///
    /// # Errors
    /// Always [`VisionError::NoCameraSupport`] in this build (no `camera` feature).
    pub fn open_with(index: u32, request: &CameraRequest) -> Result<CameraSource, VisionError> {
        let _ = (index, request);
        Err(VisionError::NoCameraSupport)
    }
}

#[cfg(not(feature = "camera"))]
impl FrameSource for CameraSource {
    fn next_frame(&mut self) -> Result<Option<Frame>, VisionError> {
        Err(VisionError::NoCameraSupport)
    }
}

/// How many damaged camera pictures in a row [`CameraSource`] skips before it reports one.
pub const MAX_DAMAGED_IN_A_ROW: u32 = 10;

#[cfg(feature = "camera")]
fn pixel_format(f: nokhwa::utils::FrameFormat) -> Option<PixelFormat> {
    use nokhwa::utils::FrameFormat;
    match f {
        FrameFormat::GRAY => Some(PixelFormat::Grey),
        FrameFormat::NV12 => Some(PixelFormat::YPlane),
        FrameFormat::YUYV => Some(PixelFormat::Yuyv),
        FrameFormat::MJPEG => Some(PixelFormat::Jpeg),
        // Colour without a Y plane would need a conversion: not asked for.
        FrameFormat::RAWRGB | FrameFormat::RAWBGR => None,
    }
}

#[cfg(feature = "camera")]
fn frame_format(f: PixelFormat) -> nokhwa::utils::FrameFormat {
    use nokhwa::utils::FrameFormat;
    match f {
        PixelFormat::Grey => FrameFormat::GRAY,
        PixelFormat::YPlane => FrameFormat::NV12,
        PixelFormat::Yuyv | PixelFormat::Uyvy => FrameFormat::YUYV,
        PixelFormat::Jpeg => FrameFormat::MJPEG,
    }
}

#[cfg(feature = "camera")]
impl CameraSource {
    /// Opens camera `index` (0 for the first) with the default [`CameraRequest`] and starts
    /// the stream.
    ///
    /// # Errors
    /// [`VisionError::CameraOpen`] if there is no such camera or it cannot be started.
    pub fn open(index: u32) -> Result<CameraSource, VisionError> {
        CameraSource::open_with(index, &CameraRequest::default())
    }

    /// Opens camera `index` in the mode [`choose_mode`] picks for `request` and starts the
    /// stream.
    ///
    /// # Errors
    /// [`VisionError::CameraOpen`] if there is no such camera, it offers no mode with grey
    /// levels (GREY, NV12, YUYV, MJPEG), or it cannot be started.
    pub fn open_with(index: u32, request: &CameraRequest) -> Result<CameraSource, VisionError> {
        use nokhwa::utils::{
            CameraFormat, CameraIndex, FrameFormat, RequestedFormat, RequestedFormatType,
            Resolution,
        };
        let open_err = |e: String| VisionError::CameraOpen { index, reason: e };
        const WANTED: [FrameFormat; 4] = [
            FrameFormat::GRAY,
            FrameFormat::NV12,
            FrameFormat::YUYV,
            FrameFormat::MJPEG,
        ];
        let any = RequestedFormat::with_formats(RequestedFormatType::None, &WANTED);
        let mut camera = nokhwa::Camera::new(CameraIndex::Index(index), any)
            .map_err(|e| open_err(e.to_string()))?;
        let modes: Vec<CameraMode> = camera
            .compatible_camera_formats()
            .map_err(|e| open_err(e.to_string()))?
            .iter()
            .filter_map(|f| {
                Some(CameraMode {
                    width: f.width(),
                    height: f.height(),
                    format: pixel_format(f.format())?,
                    fps: f.frame_rate(),
                })
            })
            .collect();
        let mode = choose_mode(&modes, request).ok_or_else(|| {
            open_err("the camera offers no grey, NV12, YUYV or MJPEG mode".into())
        })?;
        let exact = CameraFormat::new(
            Resolution::new(mode.width, mode.height),
            frame_format(mode.format),
            mode.fps,
        );
        camera
            .set_camera_requset(RequestedFormat::with_formats(
                RequestedFormatType::Exact(exact),
                &WANTED,
            ))
            .map_err(|e| open_err(e.to_string()))?;
        camera.open_stream().map_err(|e| open_err(e.to_string()))?;
        Ok(CameraSource {
            camera,
            mode,
            opened: std::time::Instant::now(),
            seq: 0,
        })
    }

    /// The mode the camera streams in.
    pub fn mode(&self) -> CameraMode {
        self.mode
    }
}

#[cfg(feature = "camera")]
impl FrameSource for CameraSource {
    fn next_frame(&mut self) -> Result<Option<Frame>, VisionError> {
        let (w, h) = (self.mode.width as usize, self.mode.height as usize);
        let format = self.mode.format;
        // A damaged picture now and then (a USB hiccup in an MJPEG stream) is skipped; a
        // camera that gives nothing but damaged pictures is an error.
        let mut damaged = 0;
        let image = loop {
            let raw = self
                .camera
                .frame_raw()
                .map_err(|e| VisionError::CameraLost(e.to_string()))?;
            match super::luma::to_luma(format, &raw, w, h) {
                Ok(image) => break image,
                Err(e) if damaged + 1 >= MAX_DAMAGED_IN_A_ROW => return Err(e),
                Err(_) => damaged += 1,
            }
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
    use super::{CameraMode, CameraRequest, PixelFormat, choose_mode, natural_cmp};

    fn mode(width: u32, height: u32, format: PixelFormat, fps: u32) -> CameraMode {
        CameraMode {
            width,
            height,
            format,
            fps,
        }
    }

    #[test]
    fn the_camera_streams_the_largest_asked_size_in_a_format_with_free_grey_levels() {
        use PixelFormat::{Grey, Jpeg, YPlane, Yuyv};
        let webcam = [
            mode(640, 480, Yuyv, 30),
            mode(1280, 720, Yuyv, 10),
            mode(1920, 1080, Yuyv, 5),
            mode(1280, 720, Jpeg, 30),
            mode(1920, 1080, Jpeg, 30),
            mode(3840, 2160, Jpeg, 15),
        ];
        let ask = CameraRequest::default();
        // 1080p YUYV runs at 5 fps only (USB 2): MJPEG at 1080p, not 4K.
        assert_eq!(choose_mode(&webcam, &ask), Some(mode(1920, 1080, Jpeg, 30)));
        // At 720p the raw YUYV is fast enough and needs no decoding.
        let small = CameraRequest {
            max_width: 1280,
            max_height: 720,
            ..ask
        };
        assert_eq!(
            choose_mode(&webcam, &small),
            Some(mode(1280, 720, Yuyv, 10))
        );
        // A Pi camera: NV12 and grey at the same size: grey.
        let pi = [mode(1920, 1080, YPlane, 30), mode(1920, 1080, Grey, 30)];
        assert_eq!(choose_mode(&pi, &ask), Some(mode(1920, 1080, Grey, 30)));
        // Nothing fast enough: the fastest there is.
        let slow = [mode(1920, 1080, Yuyv, 5), mode(1920, 1080, Yuyv, 2)];
        assert_eq!(choose_mode(&slow, &ask), Some(mode(1920, 1080, Yuyv, 5)));
        // Only larger frames than asked: the smallest of them.
        let big = [mode(4056, 3040, Jpeg, 10), mode(2028, 1520, Jpeg, 30)];
        assert_eq!(choose_mode(&big, &ask), Some(mode(2028, 1520, Jpeg, 30)));
        assert_eq!(choose_mode(&[], &ask), None);
    }

    #[test]
    fn names_sort_as_people_count() {
        let mut names = vec!["10.png", "2.png", "1.png", "a.png", "01b.png"];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(names, vec!["1.png", "01b.png", "2.png", "10.png", "a.png"]);
    }
}
