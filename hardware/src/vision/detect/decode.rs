//! Decoding: module bits to text (`rqrr`'s Reed–Solomon and data segments), and the slow read
//! of a crop by `rqrr`'s own locator for codes whose finders did not group. Every call into
//! `rqrr` is contained (a panic is counted and the attempt skipped), and the crops it sees are
//! capped in size, so one slow read costs a bounded few milliseconds whatever the frame holds.

use super::{Deadline, Detection, Detector, Ecc, Gray, ReadKind, Region};
use rqrr::BitGrid;
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;
use std::sync::atomic::Ordering;

/// Detects and decodes every grid of a prepared `rqrr` image (whose buffer type `rqrr` does
/// not export, hence a macro), each decode contained on its own; at most four grids.
macro_rules! decode_all {
    ($self:ident, $img:expr) => {{
        let mut img = $img;
        let grids = img.detect_grids();
        let mut out = Vec::new();
        for grid in grids.iter().take(4) {
            let Some(Some((meta, text))) = $self.contained(|| {
                let n = grid.grid.size();
                decode_symbol(n, |r, c| grid.grid.bit(r, c))
            }) else {
                continue;
            };
            let n = grid.grid.size() as f32;
            let b = grid.bounds.map(|p| (p.x as f32, p.y as f32));
            // rqrr's bounds reach one module past the far edges; pull them back.
            let k = n / (n + 1.0);
            let corners = [
                b[0],
                (
                    b[0].0 + (b[1].0 - b[0].0) * k,
                    b[0].1 + (b[1].1 - b[0].1) * k,
                ),
                (
                    b[0].0 + (b[2].0 - b[0].0) * k,
                    b[0].1 + (b[2].1 - b[0].1) * k,
                ),
                (
                    b[0].0 + (b[3].0 - b[0].0) * k,
                    b[0].1 + (b[3].1 - b[0].1) * k,
                ),
            ];
            out.push(Raw {
                text,
                version: u8::try_from(meta.version.0).unwrap_or(0),
                ecc: Ecc::from_format_bits(meta.ecc_level),
                corners,
            });
        }
        out
    }};
}

/// The ways a crop is turned black and white before `rqrr` looks at it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Binarize {
    /// `rqrr`'s own moving average along rows.
    Native,
    /// One global threshold (Otsu).
    Otsu,
    /// The mean of a square window of this radius (in pixels), less `bias` percent.
    LocalMean { radius: usize, bias: u8 },
}

/// A decoded grid, in the coordinates of the buffer it came from.
struct Raw {
    text: String,
    version: u8,
    ecc: Ecc,
    corners: [(f32, f32); 4],
}

thread_local! {
    /// Whether a panic on this thread is one of rqrr's, being contained.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}
static INSTALL_HOOK: Once = Once::new();

impl Detector {
    /// Decodes an `n` × `n` grid of module bits (dark = `true`, row by row), also mirrored.
    pub(super) fn decode_bits(&self, bits: &[bool], n: usize) -> Option<(rqrr::MetaData, String)> {
        if bits.len() != n * n {
            return None;
        }
        self.contained(|| decode_symbol(n, |r, c| bits[r * n + c]))?
    }

    /// Decodes the codes in one region with `rqrr`, trying the binarisations in turn until one
    /// reads, each only while the deadline allows. The crop is at most
    /// [`super::DetectorConfig::max_crop_px`] pixels (after any upscale): larger regions are cut
    /// to that around their centre.
    pub(super) fn decode_region(
        &self,
        gray: &Gray,
        region: Region,
        deadline: &Deadline,
    ) -> Vec<Detection> {
        let cap = self.config.max_crop_px.max(64 * 64) as f32;
        let up = region.unit < self.config.upscale_below_px;
        let scale2 = if up { 4.0 } else { 1.0 };
        // Cut the region to the cap around its centre.
        let (mut r0, mut r1) = (
            (region.rect[0], region.rect[1]),
            (region.rect[2], region.rect[3]),
        );
        let area = (r1.0 - r0.0).max(0.0) * (r1.1 - r0.1).max(0.0) * scale2;
        if area > cap {
            let k = (cap / area).sqrt();
            let c = ((r0.0 + r1.0) / 2.0, (r0.1 + r1.1) / 2.0);
            let (hw, hh) = ((r1.0 - r0.0) * k / 2.0, (r1.1 - r0.1) * k / 2.0);
            r0 = (c.0 - hw, c.1 - hh);
            r1 = (c.0 + hw, c.1 + hh);
        }
        let x0 = r0.0.floor().max(0.0) as usize;
        let y0 = r0.1.floor().max(0.0) as usize;
        let x1 = (r1.0.ceil().max(0.0) as usize).min(gray.w);
        let y1 = (r1.1.ceil().max(0.0) as usize).min(gray.h);
        if x1 < x0 + 21 || y1 < y0 + 21 {
            return Vec::new();
        }
        let (cw, ch) = (x1 - x0, y1 - y0);
        let mut crop = Vec::with_capacity(cw * ch);
        for y in y0..y1 {
            let row = &gray.px[y * gray.w + x0..y * gray.w + x1];
            if region.light {
                crop.extend(row.iter().map(|v| 255 - v));
            } else {
                crop.extend_from_slice(row);
            }
        }
        let origin = (x0 as f32, y0 as f32);
        let (buf, w, h, scale) = if up {
            let (up, w, h) = upscale2(&Gray {
                px: &crop,
                w: cw,
                h: ch,
            });
            (up, w, h, 2.0)
        } else {
            (crop, cw, ch, 1.0)
        };
        let g = Gray { px: &buf, w, h };
        let unit_here = (region.unit * scale).max(1.0);
        let radius = ((unit_here * 4.0) as usize).max(4);
        for pass in [
            Binarize::Native,
            Binarize::Otsu,
            Binarize::LocalMean { radius, bias: 4 },
        ] {
            if deadline.passed() {
                break;
            }
            let found = self.pass(&g, pass, origin, scale);
            if !found.is_empty() {
                return found;
            }
        }
        Vec::new()
    }

    /// One `rqrr` run on a buffer with one binarisation; coordinates mapped back to the frame.
    fn pass(&self, g: &Gray, how: Binarize, origin: (f32, f32), scale: f32) -> Vec<Detection> {
        let raws = match how {
            Binarize::Native => self.contained(|| {
                decode_all!(
                    self,
                    rqrr::PreparedImage::prepare_from_greyscale(g.w, g.h, |x, y| g.px[y * g.w + x])
                )
            }),
            Binarize::Otsu => {
                let t = super::sample::otsu(g.px);
                self.contained(|| {
                    decode_all!(
                        self,
                        rqrr::PreparedImage::prepare_from_bitmap(g.w, g.h, |x, y| g.px
                            [y * g.w + x]
                            <= t)
                    )
                })
            }
            Binarize::LocalMean { radius, bias } => {
                let bits = local_mean(g, radius, bias);
                self.contained(|| {
                    decode_all!(
                        self,
                        rqrr::PreparedImage::prepare_from_bitmap(g.w, g.h, |x, y| bits
                            [y * g.w + x])
                    )
                })
            }
        };
        raws.unwrap_or_default()
            .into_iter()
            .map(|r| Detection {
                text: r.text,
                corners: r.corners.map(|p| {
                    (
                        origin.0 + (p.0 + 0.5) / scale - 0.5,
                        origin.1 + (p.1 + 0.5) / scale - 0.5,
                    )
                }),
                version: r.version,
                ecc: r.ecc,
                read: ReadKind::Searched,
            })
            .collect()
    }

    /// Runs `f`, containing a panic (counted, silenced on this thread).
    pub(super) fn contained<T>(&self, f: impl FnOnce() -> T) -> Option<T> {
        INSTALL_HOOK.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                if !QUIET.with(Cell::get) {
                    previous(info);
                }
            }));
        });
        let was = QUIET.with(|q| q.replace(true));
        let result = catch_unwind(AssertUnwindSafe(f));
        QUIET.with(|q| q.set(was));
        match result {
            Ok(v) => Some(v),
            Err(_) => {
                self.panics.fetch_add(1, Ordering::Relaxed);
                None
            }
        }
    }
}

/// Decodes a module grid (`dark(row, column)`) with our own decoder ([`super::symbol`]), in
/// the shape the callers keep (`rqrr`'s metadata: version and error correction bits).
fn decode_symbol(
    n: usize,
    dark: impl Fn(usize, usize) -> bool,
) -> Option<(rqrr::MetaData, String)> {
    let s = super::symbol::decode(n, dark)?;
    let meta = rqrr::MetaData {
        version: rqrr::Version(usize::from(s.version)),
        ecc_level: s.ecc_bits,
        mask: s.mask,
    };
    Some((meta, s.text))
}

/// A 2× bilinear upscale (of a crop, never of a whole frame).
fn upscale2(g: &Gray) -> (Vec<u8>, usize, usize) {
    let (w2, h2) = (g.w * 2, g.h * 2);
    let mut out = vec![0u8; w2 * h2];
    for y in 0..h2 {
        let sy = (y as f32 * 0.5 - 0.25).max(0.0);
        let y0 = (sy as usize).min(g.h - 1);
        let y1 = (y0 + 1).min(g.h - 1);
        let fy = sy - y0 as f32;
        for x in 0..w2 {
            let sx = (x as f32 * 0.5 - 0.25).max(0.0);
            let x0 = (sx as usize).min(g.w - 1);
            let x1 = (x0 + 1).min(g.w - 1);
            let fx = sx - x0 as f32;
            let at = |xx: usize, yy: usize| f32::from(g.px[yy * g.w + xx]);
            let v = (at(x0, y0) * (1.0 - fx) + at(x1, y0) * fx) * (1.0 - fy)
                + (at(x0, y1) * (1.0 - fx) + at(x1, y1) * fx) * fy;
            out[y * w2 + x] = v.round() as u8;
        }
    }
    (out, w2, h2)
}

/// Dark where a pixel is below the mean of its (2r+1)² window, less `bias` percent.
fn local_mean(g: &Gray, radius: usize, bias: u8) -> Vec<bool> {
    let k = 100 - u64::from(bias.min(100));
    super::sample::window_sums(g.px, g.w, g.h, radius)
        .into_iter()
        .zip(g.px)
        .map(|((sum, n), &v)| u64::from(v) * n * 100 < sum * k)
        .collect()
}
