//! Frames to grey levels at no conversion cost.
//!
//! The detector works on grey levels (luma). A camera gives them for free in most of its
//! formats, and this module takes them as they come instead of converting colour to grey:
//!
//! | format | what is taken |
//! | --- | --- |
//! | `GREY` (Y8) | the buffer as it is |
//! | `YUYV` (YUY2, 4:2:2) | every second byte: the Y samples |
//! | `NV12`, `NV21`, `YU12`/`I420`, `YV12` (4:2:0) | the Y plane, the first width × height bytes |
//! | `MJPEG` / JPEG files | decoded to luma only ([`super::jpeg`] for baseline pictures, every webcam's MJPEG: the chroma is walked, as it must be, but never stored or transformed; [`zune_jpeg`] with a luma output for the rest) |
//! | PNG files | decoded; a grey PNG is taken as it is, a colour one converted |
//!
//! Every decoder call is bounded (frames of at most [`MAX_SIDE`] pixels a side) and contained:
//! a damaged frame is an error, never a panic.

use super::VisionError;
use image::GrayImage;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use zune_core::colorspace::ColorSpace;
use zune_core::options::DecoderOptions;
use zune_jpeg::JpegDecoder;

/// The largest frame side accepted, in pixels (a 12 MP camera is 4056 wide).
pub const MAX_SIDE: usize = 8192;

/// The pixel layouts a camera frame may come in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PixelFormat {
    /// 8-bit grey (`GREY`, Y8).
    Grey,
    /// Packed 4:2:2, Y0 U Y1 V (`YUYV`, YUY2).
    Yuyv,
    /// Packed 4:2:2, U Y0 V Y1 (`UYVY`).
    Uyvy,
    /// A full Y plane followed by chroma (`NV12`, `NV21`, `YU12`/`I420`, `YV12`).
    YPlane,
    /// A JPEG picture (`MJPEG`).
    Jpeg,
}

fn bad(format: &str, reason: impl Into<String>) -> VisionError {
    VisionError::BadFrame {
        format: format.to_owned(),
        reason: reason.into(),
    }
}

fn check_size(format: &str, width: usize, height: usize) -> Result<(), VisionError> {
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(bad(
            format,
            format!("a {width} × {height} frame (each side must be 1 to {MAX_SIDE} pixels)"),
        ));
    }
    Ok(())
}

/// The grey levels of a `width` × `height` frame in `format`.
///
/// # Errors
/// [`VisionError::BadFrame`] for a buffer of the wrong length or a damaged JPEG.
pub fn to_luma(
    format: PixelFormat,
    buf: &[u8],
    width: usize,
    height: usize,
) -> Result<GrayImage, VisionError> {
    match format {
        PixelFormat::Jpeg => {
            let image = from_jpeg(buf)?;
            if (image.width() as usize, image.height() as usize) != (width, height)
                && width != 0
                && height != 0
            {
                return Err(bad(
                    "MJPEG",
                    format!(
                        "a {} × {} picture in a {width} × {height} stream",
                        image.width(),
                        image.height()
                    ),
                ));
            }
            Ok(image)
        }
        PixelFormat::Grey => take_plane("GREY", buf, width, height, 1, 0),
        PixelFormat::Yuyv => take_plane("YUYV", buf, width, height, 2, 0),
        PixelFormat::Uyvy => take_plane("UYVY", buf, width, height, 2, 1),
        PixelFormat::YPlane => {
            check_size("NV12", width, height)?;
            let n = width * height;
            // The chroma of 4:2:0 is a quarter of the luma twice over.
            let need = n + 2 * (width.div_ceil(2) * height.div_ceil(2));
            if buf.len() < need {
                return Err(bad(
                    "NV12",
                    format!(
                        "{} bytes for a {width} × {height} frame ({need} needed)",
                        buf.len()
                    ),
                ));
            }
            plane(&buf[..n], width, height, "NV12")
        }
    }
}

/// Every `step`-th byte from `first`: the Y samples of a packed format (step 1: the buffer).
fn take_plane(
    name: &str,
    buf: &[u8],
    width: usize,
    height: usize,
    step: usize,
    first: usize,
) -> Result<GrayImage, VisionError> {
    check_size(name, width, height)?;
    let n = width * height;
    if buf.len() < n * step {
        return Err(bad(
            name,
            format!(
                "{} bytes for a {width} × {height} frame ({} needed)",
                buf.len(),
                n * step
            ),
        ));
    }
    if step == 1 {
        return plane(&buf[..n], width, height, name);
    }
    let y: Vec<u8> = buf[first..n * step].iter().step_by(step).copied().collect();
    owned_plane(y, width, height, name)
}

fn plane(y: &[u8], width: usize, height: usize, name: &str) -> Result<GrayImage, VisionError> {
    owned_plane(y.to_vec(), width, height, name)
}

/// A `width` × `height` frame of the grey levels `y`, taken as they are (no copy).
fn owned_plane(
    y: Vec<u8>,
    width: usize,
    height: usize,
    name: &str,
) -> Result<GrayImage, VisionError> {
    let (w, h) = (
        u32::try_from(width).map_err(|_| bad(name, "too wide"))?,
        u32::try_from(height).map_err(|_| bad(name, "too tall"))?,
    );
    GrayImage::from_raw(w, h, y).ok_or_else(|| bad(name, "the plane is too short"))
}

/// Decodes a JPEG picture to its grey levels only.
///
/// # Errors
/// [`VisionError::BadFrame`] for a damaged or oversized picture.
pub fn from_jpeg(bytes: &[u8]) -> Result<GrayImage, VisionError> {
    // The fast baseline decoder first (every webcam's MJPEG); anything it does not take, or
    // finds damaged, goes to zune-jpeg, which decodes what it can and says what is wrong.
    if let Ok(Ok(luma)) = catch_unwind(|| super::jpeg::decode(bytes, MAX_SIDE)) {
        return owned_plane(luma.pixels, luma.width, luma.height, "JPEG");
    }
    from_jpeg_general(bytes)
}

/// Decodes any JPEG picture `zune-jpeg` reads (progressive, arithmetic-coded, RGB…) to its
/// grey levels, more slowly than [`from_jpeg`]'s baseline decoder.
///
/// # Errors
/// [`VisionError::BadFrame`] for a damaged or oversized picture.
pub fn from_jpeg_general(bytes: &[u8]) -> Result<GrayImage, VisionError> {
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::Luma)
        .set_max_width(MAX_SIDE)
        .set_max_height(MAX_SIDE);
    let decoded = catch_unwind(AssertUnwindSafe(|| {
        let mut decoder = JpegDecoder::new_with_options(std::io::Cursor::new(bytes), options);
        let pixels = decoder.decode()?;
        let (w, h) = decoder
            .dimensions()
            .ok_or(zune_jpeg::errors::DecodeErrors::FormatStatic("no size"))?;
        Ok::<_, zune_jpeg::errors::DecodeErrors>((pixels, w, h))
    }));
    let (pixels, w, h) = match decoded {
        Ok(Ok(v)) => v,
        // The decoder's messages can end in a line break: one line per message.
        Ok(Err(e)) => return Err(bad("JPEG", e.to_string().trim())),
        Err(_) => return Err(bad("JPEG", "the decoder failed on this picture")),
    };
    check_size("JPEG", w, h)?;
    if pixels.len() != w * h {
        return Err(bad(
            "JPEG",
            format!("{} grey levels for a {w} × {h} picture", pixels.len()),
        ));
    }
    // The decoder's buffer becomes the frame: no copy.
    owned_plane(pixels, w, h, "JPEG")
}

/// Reads an image file's grey levels: a JPEG decoded to luma only, a PNG (or another format
/// `image` reads) decoded and, if in colour, converted.
///
/// # Errors
/// [`VisionError::BadImage`] naming the file.
pub fn read_file(path: &Path) -> Result<GrayImage, VisionError> {
    let bad_image = |reason: String| VisionError::BadImage {
        path: path.to_path_buf(),
        reason,
    };
    let bytes = std::fs::read(path).map_err(|e| bad_image(e.to_string()))?;
    if bytes.starts_with(&[0xFF, 0xD8]) {
        return from_jpeg(&bytes).map_err(|e| match e {
            VisionError::BadFrame { reason, .. } => bad_image(reason),
            other => bad_image(other.to_string()),
        });
    }
    let mut reader = image::ImageReader::new(std::io::Cursor::new(&bytes))
        .with_guessed_format()
        .map_err(|e| bad_image(e.to_string()))?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE as u32);
    limits.max_image_height = Some(MAX_SIDE as u32);
    reader.limits(limits);
    let image = reader.decode().map_err(|e| bad_image(e.to_string()))?;
    Ok(image.into_luma8())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// BT.601 luma (what a JPEG's Y channel is).
    fn y601(p: &image::Rgb<u8>) -> u8 {
        let [r, g, b] = p.0.map(f32::from);
        (0.299 * r + 0.587 * g + 0.114 * b)
            .round()
            .clamp(0.0, 255.0) as u8
    }

    /// A test picture: a gradient with a dark square, as colour; and its BT.601 luma.
    fn picture(w: u32, h: u32) -> (GrayImage, image::RgbImage) {
        let rgb = image::RgbImage::from_fn(w, h, |x, y| {
            let v = ((x * 255) / w) as u8;
            let dark = (w / 4..w / 2).contains(&x) && (h / 4..h / 2).contains(&y);
            if dark {
                image::Rgb([20, 30, 25])
            } else {
                image::Rgb([v, v.saturating_add(10), 255 - v])
            }
        });
        let grey = GrayImage::from_fn(w, h, |x, y| image::Luma([y601(rgb.get_pixel(x, y))]));
        (grey, rgb)
    }

    #[test]
    fn packed_and_planar_frames_give_their_y_samples() {
        let (w, h) = (6usize, 4usize);
        let y: Vec<u8> = (0..w * h).map(|i| (i * 7 % 256) as u8).collect();
        let mut yuyv = Vec::new();
        let mut uyvy = Vec::new();
        for pair in y.chunks(2) {
            yuyv.extend_from_slice(&[pair[0], 100, pair[1], 200]);
            uyvy.extend_from_slice(&[100, pair[0], 200, pair[1]]);
        }
        let mut nv12 = y.clone();
        nv12.extend(std::iter::repeat_n(128, w * h / 2));
        for (format, buf) in [
            (PixelFormat::Grey, y.clone()),
            (PixelFormat::Yuyv, yuyv),
            (PixelFormat::Uyvy, uyvy),
            (PixelFormat::YPlane, nv12),
        ] {
            let img = to_luma(format, &buf, w, h).unwrap();
            assert_eq!(img.as_raw(), &y, "{format:?}");
        }
        // A short buffer, a zero or huge size: errors, not panics.
        let err = to_luma(PixelFormat::Yuyv, &y, w, h)
            .unwrap_err()
            .to_string();
        assert!(err.contains("bytes for a 6 × 4 frame"), "{err}");
        assert!(to_luma(PixelFormat::Grey, &y, 0, 4).is_err());
        assert!(to_luma(PixelFormat::Grey, &y, 100_000, 4).is_err());
        assert!(to_luma(PixelFormat::YPlane, &y, w, h).is_err());
    }

    #[test]
    fn a_colour_jpeg_decodes_to_its_luma_only() {
        let (grey, rgb) = picture(160, 96);
        let mut jpeg = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 95)
            .encode_image(&rgb)
            .unwrap();
        let luma = from_jpeg(&jpeg).unwrap();
        assert_eq!((luma.width(), luma.height()), (160, 96));
        // The Y channel of the full colour decode, to rounding.
        let full = image::load_from_memory(&jpeg).unwrap().into_rgb8();
        let worst = luma
            .as_raw()
            .iter()
            .zip(full.pixels())
            .map(|(a, p)| a.abs_diff(y601(p)))
            .max()
            .unwrap();
        assert!(worst <= 3, "luma-only decode differs by {worst}");
        let off = luma
            .as_raw()
            .iter()
            .zip(grey.as_raw())
            .map(|(a, b)| u32::from(a.abs_diff(*b)))
            .sum::<u32>() as f64
            / grey.as_raw().len() as f64;
        assert!(off < 4.0, "mean difference from the original {off}");
        let via = to_luma(PixelFormat::Jpeg, &jpeg, 160, 96).unwrap();
        assert_eq!(via, luma);
    }

    #[test]
    fn a_picture_that_makes_zune_jpeg_panic_is_an_error_in_one_line() {
        // Found by fuzzing (fuzz/fuzz_targets/decode_jpeg.rs): zune-jpeg 0.5 unwraps a None in
        // its AVX2 IDCT on this picture. The baseline decoder refuses it, and the general
        // decoder's panic is contained.
        let bytes = include_bytes!("../../../fuzz/seeds/jpeg/zune-jpeg-panics.jpg");
        assert!(super::super::jpeg::decode(bytes, MAX_SIDE).is_err());
        let err = from_jpeg(bytes).unwrap_err().to_string();
        assert!(!err.contains('\n'), "{err}");
    }

    #[test]
    fn damaged_jpegs_and_files_are_errors_naming_the_file() {
        let (_, rgb) = picture(64, 64);
        let mut jpeg = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 80)
            .encode_image(&rgb)
            .unwrap();
        for cut in [2, 20, 200, jpeg.len() / 2] {
            // A truncated picture decodes as far as it goes or is refused; never a panic.
            let _ = from_jpeg(&jpeg[..cut]);
        }
        assert!(from_jpeg(b"\xFF\xD8 not a jpeg").is_err());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("broken.jpg");
        std::fs::write(&path, b"\xFF\xD8\xFF\xE0 broken").unwrap();
        let err = read_file(&path).unwrap_err().to_string();
        assert!(err.contains("broken.jpg"), "{err}");
        assert!(!err.contains('\n'), "one line: {err:?}");
        let png = dir.path().join("grey.png");
        let (grey, _) = picture(40, 30);
        let missing = read_file(&png).map(|_| ()).unwrap_err().to_string();
        assert!(missing.contains("grey.png"), "{missing}");
        grey.save(&png).unwrap();
        assert_eq!(read_file(&png).unwrap(), grey);
    }
}
