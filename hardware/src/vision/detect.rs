//! The QR detector: every code in view, with its text and its corners in frame pixels.
//!
//! Decoding is `rqrr`'s; this module decides *where* and *on what* it runs:
//!
//! - **Where.** A cheap scan at full resolution looks for finder patterns (the three
//!   1:1:3:1:1 squares of every QR code) on every second row, against a local threshold taken
//!   from 16 × 16-pixel block means, and checks each hit vertically. Finders are grouped in
//!   threes (a right angle, two equal legs) into candidate regions, and `rqrr` runs only on those
//!   crops, so a table of thirty cards costs thirty small decodes instead of one huge one.
//! - **On what.** Each crop is tried with up to three binarisations (`rqrr`'s own moving
//!   average, Otsu's global threshold, a local mean); small codes (under 3 px a module) are
//!   first upscaled twice with bilinear interpolation.
//! - **When.** Cards lie still. [`Scanner`] keeps the last frame's detections and compares
//!   16 × 16 block means between frames: a code whose blocks did not change is carried over; one
//!   whose blocks changed is re-read *where it was* by sampling its module grid directly (a few
//!   hundred pixel reads and one Reed–Solomon decode); only if that fails is its neighbourhood
//!   searched again. The finder scan itself runs only over changed blocks (and the two frames
//!   after a change, while things settle), and over the whole frame every
//!   [`ScanConfig::full_search_every`] frames.
//!
//! [`Detector::detect`] is the thorough one-shot read for a single picture: the candidate crops
//! plus three whole-image passes (and 2× upscaled ones for small pictures).
//!
//! `rqrr` 0.11 can panic on some real images (an assertion in its geometry). Every call into it
//! is contained with `catch_unwind`; the attempt is skipped and counted
//! ([`Detector::panics_contained`]). While such a call runs, the panic message of *that thread*
//! is silenced by a panic hook installed once, which hands every other panic to the hook that was
//! there before.

use super::geometry::{Homography, Point};
use image::GrayImage;
use rqrr::BitGrid;
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Detects and decodes every grid of a prepared `rqrr` image (whose buffer type `rqrr` does
/// not export, hence a macro), each decode contained on its own.
macro_rules! decode_all {
    ($self:ident, $img:expr) => {{
        let mut img = $img;
        let grids = img.detect_grids();
        let mut out = Vec::new();
        for grid in &grids {
            let Some(Ok((meta, text))) = $self.contained(|| decode_text(grid)) else {
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

/// Error correction level of a code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ecc {
    /// About 7 % of the code words can be restored.
    L,
    /// About 15 %.
    M,
    /// About 25 % (card tags and mat markers).
    Q,
    /// About 30 %.
    H,
}

impl Ecc {
    fn from_format_bits(bits: u16) -> Ecc {
        match bits & 3 {
            1 => Ecc::L,
            0 => Ecc::M,
            3 => Ecc::Q,
            _ => Ecc::H,
        }
    }
}

/// How a detection was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ReadKind {
    /// Found by searching the frame.
    Searched,
    /// Re-read where the previous frame had it (module grid sampled at the hinted corners).
    Reread,
    /// Carried over from the previous frame: the pixels around it did not change.
    Unchanged,
}

/// One QR code read in a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Detection {
    /// The decoded text: a card tag, a mat marker, or anything else (a URL…).
    pub text: String,
    /// The symbol's outer corners in frame pixels: top left, top right, bottom right, bottom
    /// left, in the symbol's own orientation (top left lies between the two other finders), so
    /// the card's rotation follows from them.
    pub corners: [(f32, f32); 4],
    /// The QR version (1–40; 2 for tags).
    pub version: u8,
    /// The error correction level.
    pub ecc: Ecc,
    /// How it was obtained in this frame.
    pub read: ReadKind,
}

impl Detection {
    /// The symbol's centre in frame pixels.
    pub fn center(&self) -> (f32, f32) {
        let c = &self.corners;
        (
            (c[0].0 + c[1].0 + c[2].0 + c[3].0) / 4.0,
            (c[0].1 + c[1].1 + c[2].1 + c[3].1) / 4.0,
        )
    }

    /// Modules across (21 + 4 per version above 1).
    pub fn modules(&self) -> usize {
        17 + 4 * usize::from(self.version)
    }

    /// Mean side length in pixels.
    pub fn side_px(&self) -> f32 {
        let c = &self.corners;
        let d = |a: (f32, f32), b: (f32, f32)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
        (d(c[0], c[1]) + d(c[1], c[2]) + d(c[2], c[3]) + d(c[3], c[0])) / 4.0
    }

    /// Pixels per module.
    pub fn module_px(&self) -> f32 {
        self.side_px() / self.modules() as f32
    }

    /// The code's rotation in degrees, clockwise, from upright (top edge from its top-left to
    /// top-right corner), in 0..360.
    pub fn angle_deg(&self) -> f32 {
        let (a, b) = (self.corners[0], self.corners[1]);
        (b.1 - a.1).atan2(b.0 - a.0).to_degrees().rem_euclid(360.0)
    }

    fn bbox(&self) -> [f32; 4] {
        let xs = self.corners.map(|c| c.0);
        let ys = self.corners.map(|c| c.1);
        [
            xs.iter().copied().fold(f32::INFINITY, f32::min),
            ys.iter().copied().fold(f32::INFINITY, f32::min),
            xs.iter().copied().fold(f32::NEG_INFINITY, f32::max),
            ys.iter().copied().fold(f32::NEG_INFINITY, f32::max),
        ]
    }

    fn contains(&self, p: (f32, f32), grow: f32) -> bool {
        let c = self.center();
        let q = self
            .corners
            .map(|k| (c.0 + (k.0 - c.0) * grow, c.1 + (k.1 - c.1) * grow));
        let mut inside = true;
        let mut sign = 0.0f32;
        for i in 0..4 {
            let (a, b) = (q[i], q[(i + 1) % 4]);
            let cross = (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
            if sign == 0.0 {
                sign = cross.signum();
            } else if cross.signum() != sign && cross != 0.0 {
                inside = false;
            }
        }
        inside
    }
}

/// Settings of the detector.
#[derive(Clone, Debug, PartialEq)]
pub struct DetectorConfig {
    /// Crops whose codes have fewer pixels a module than this are upscaled twice first.
    pub upscale_below_px: f32,
    /// Smallest module (in pixels) the finder scan looks for.
    pub min_module_px: f32,
    /// Largest module (in pixels) the finder scan looks for.
    pub max_module_px: f32,
    /// The finder scan reads every this many rows.
    pub row_step: usize,
    /// Blocks whose grey levels span less than this are taken as blank (no finder there).
    pub min_contrast: u8,
}

impl Default for DetectorConfig {
    fn default() -> Self {
        DetectorConfig {
            upscale_below_px: 3.0,
            min_module_px: 1.2,
            max_module_px: 40.0,
            row_step: 2,
            min_contrast: 32,
        }
    }
}

/// Reads QR codes in images. Cheap to share between calls; see the [module docs](self).
#[derive(Debug, Default)]
pub struct Detector {
    config: DetectorConfig,
    panics: AtomicUsize,
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

/// A grey buffer.
struct Gray<'a> {
    px: &'a [u8],
    w: usize,
    h: usize,
}

/// A decoded grid, in the coordinates of the buffer it came from.
struct Raw {
    text: String,
    version: u8,
    ecc: Ecc,
    corners: [(f32, f32); 4],
}

/// A region of the frame to decode: x0, y0, x1, y1 (pixels) and the module size guessed.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Region {
    rect: [f32; 4],
    unit: f32,
    /// The centres of its three finders, top left, top right, bottom left (when grouped).
    triple: Option<[(f32, f32); 3]>,
}

impl Detector {
    /// A detector with these settings.
    pub fn new(config: DetectorConfig) -> Detector {
        Detector {
            config,
            panics: AtomicUsize::new(0),
        }
    }

    /// Its settings.
    pub fn config(&self) -> &DetectorConfig {
        &self.config
    }

    /// How many times `rqrr` panicked inside this detector (each time contained, and that
    /// attempt skipped).
    pub fn panics_contained(&self) -> usize {
        self.panics.load(Ordering::Relaxed)
    }

    /// Every code in `image`, read thoroughly: candidate crops and three whole-image passes
    /// (for pictures under 400 px, also on a 2× upscale). Sorted by text, then position.
    pub fn detect(&self, image: &GrayImage) -> Vec<Detection> {
        let gray = Gray {
            px: image.as_raw(),
            w: image.width() as usize,
            h: image.height() as usize,
        };
        if gray.w < 21 || gray.h < 21 {
            return Vec::new();
        }
        let mut found = self.search_regions(&gray, None, &[]);
        let r = (gray.w.max(gray.h) / 16).max(4);
        let passes = [
            Binarize::Native,
            Binarize::Otsu,
            Binarize::LocalMean { radius: r, bias: 5 },
        ];
        for pass in passes {
            found.extend(self.pass(&gray, pass, (0.0, 0.0), 1.0, ReadKind::Searched));
        }
        if gray.w.max(gray.h) < 400 {
            let (up, uw, uh) = upscale2(&gray);
            let up = Gray {
                px: &up,
                w: uw,
                h: uh,
            };
            for pass in [
                Binarize::Native,
                Binarize::Otsu,
                Binarize::LocalMean {
                    radius: r * 2,
                    bias: 5,
                },
            ] {
                found.extend(self.pass(&up, pass, (0.0, 0.0), 2.0, ReadKind::Searched));
            }
        }
        merge(found)
    }

    /// Every code in `image`, using the previous frame's detections as hints: each hint is
    /// re-read where it was (falling back to a search around it), and the rest of the frame is
    /// searched for finder patterns not explained by a re-read code. Sorted by text, then
    /// position.
    pub fn detect_hinted(&self, image: &GrayImage, hints: &[Detection]) -> Vec<Detection> {
        let gray = Gray {
            px: image.as_raw(),
            w: image.width() as usize,
            h: image.height() as usize,
        };
        let mut kept = Vec::new();
        let mut lost = Vec::new();
        for hint in hints {
            match self.reread(image, hint) {
                Some(d) => kept.push(d),
                None => lost.push(hint.clone()),
            }
        }
        let stats = BlockStats::of(&gray, self.config.min_contrast);
        let finders = self.find_finders(&gray, &stats, None);
        let mut regions: Vec<Region> = group_finders(&finders)
            .into_iter()
            .filter(|r| !explained(r, &kept))
            .collect();
        regions.extend(lost.iter().map(around));
        let mut found = kept;
        found.extend(self.decode_regions(&gray, regions, None, &|_| false).found);
        merge(found)
    }

    /// Finder scan (over `active` blocks, or all) and decode of the candidate regions not
    /// explained by `known`.
    fn search_regions(
        &self,
        gray: &Gray,
        active: Option<&[bool]>,
        known: &[Detection],
    ) -> Vec<Detection> {
        let stats = BlockStats::of(gray, self.config.min_contrast);
        let finders = self.find_finders(gray, &stats, active);
        let regions: Vec<Region> = group_finders(&finders)
            .into_iter()
            .filter(|r| !explained(r, known))
            .collect();
        self.decode_regions(gray, regions, None, &|_| false).found
    }

    /// Decodes candidate regions: a finder triple by sampling its module grid directly (tens
    /// of microseconds), the rest — and triples that do not read so — with `rqrr` on a crop
    /// (milliseconds), at most `budget` crops. Gives the detections, and the crops left undone
    /// and those that read nothing.
    fn decode_regions(
        &self,
        gray: &Gray,
        regions: Vec<Region>,
        mut budget: Option<usize>,
        skip_slow: &dyn Fn(&Region) -> bool,
    ) -> Decoded {
        let mut out = Vec::new();
        let mut slow_regions = Vec::new();
        for region in regions {
            if let Some(triple) = region.triple
                && let Some(d) = self.read_triple(gray, triple, region.unit)
            {
                out.push(d);
                continue;
            }
            if !skip_slow(&region) {
                slow_regions.push(region);
            }
        }
        slow_regions.retain(|r| !explained(r, &out));
        let mut left = Vec::new();
        let mut failed = Vec::new();
        let mut slow = 0;
        for region in merge_regions(slow_regions) {
            match &mut budget {
                Some(0) => {
                    left.push(region);
                    continue;
                }
                Some(b) => *b -= 1,
                None => {}
            }
            slow += 1;
            let found = self.decode_region(gray, region);
            if found.is_empty() {
                failed.push(region);
            }
            out.extend(found);
        }
        Decoded {
            found: out,
            left,
            failed,
            slow,
        }
    }

    /// Reads a code from its three finder centres: the module grid is laid through them
    /// (an affine map; the version from their distance, and its neighbours), candidates whose
    /// finder and timing patterns do not match are dropped, and a grid that does not decode is
    /// laid again through its alignment pattern.
    fn read_triple(&self, g: &Gray, t: [(f32, f32); 3], unit: f32) -> Option<Detection> {
        let p = t.map(|(x, y)| (f64::from(x), f64::from(y)));
        let d = |a: Point, b: Point| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
        let span = (d(p[0], p[1]) + d(p[0], p[2])) / 2.0;
        let estimate = (span / f64::from(unit.max(0.5)) + 7.0 - 17.0) / 4.0;
        let base = estimate.round().clamp(1.0, 40.0) as usize;
        let fourth = (p[1].0 + p[2].0 - p[0].0, p[1].1 + p[2].1 - p[0].1);
        let mut candidates = Vec::new();
        for v in [base.saturating_sub(1), base, base + 1] {
            if !(1..=40).contains(&v) {
                continue;
            }
            let n = 17 + 4 * v;
            let nf = n as f64;
            let from = [
                (3.5, 3.5),
                (nf - 3.5, 3.5),
                (3.5, nf - 3.5),
                (nf - 3.5, nf - 3.5),
            ];
            let Some(h) = Homography::from_points(from, [p[0], p[1], p[2], fourth]) else {
                continue;
            };
            let Some((samples, t)) = sample_grid(g, &h, n) else {
                continue;
            };
            let miss = pattern_mismatch(&samples, t, n);
            if miss < 0.25 {
                candidates.push((miss, n, h, samples, t));
            }
        }
        candidates.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (_, n, h, samples, t) in candidates {
            let nf = n as f64;
            let mut read = self.decode_samples(&samples, t, n).map(|r| (r, h));
            if read.is_none()
                && n > 21
                && let Some(h2) = align(g, &h, n, &samples, t, [p[0], p[1], p[2]])
                && let Some((samples, t)) = sample_grid(g, &h2, n)
            {
                read = self.decode_samples(&samples, t, n).map(|r| (r, h2));
            }
            if let Some(((meta, text), h)) = read {
                let corners = [(0.0, 0.0), (nf, 0.0), (nf, nf), (0.0, nf)]
                    .map(|c| h.map(c).map_or((0.0, 0.0), |q| (q.0 as f32, q.1 as f32)));
                return Some(Detection {
                    text,
                    corners,
                    version: u8::try_from(meta.version.0).unwrap_or(0),
                    ecc: Ecc::from_format_bits(meta.ecc_level),
                    read: ReadKind::Searched,
                });
            }
        }
        None
    }

    /// Decodes sampled module values (dark at or below `t`).
    fn decode_samples(&self, samples: &[u8], t: u8, n: usize) -> Option<(rqrr::MetaData, String)> {
        let grid = rqrr::SimpleGrid::from_func(n, |x, y| samples[y * n + x] <= t);
        self.contained(|| decode_text(&rqrr::Grid::new(grid)))?.ok()
    }

    /// Decodes the codes in one region with `rqrr`, trying the binarisations in turn until one
    /// reads.
    fn decode_region(&self, gray: &Gray, region: Region) -> Vec<Detection> {
        let x0 = region.rect[0].floor().max(0.0) as usize;
        let y0 = region.rect[1].floor().max(0.0) as usize;
        let x1 = (region.rect[2].ceil().max(0.0) as usize).min(gray.w);
        let y1 = (region.rect[3].ceil().max(0.0) as usize).min(gray.h);
        if x1 < x0 + 21 || y1 < y0 + 21 {
            return Vec::new();
        }
        let (cw, ch) = (x1 - x0, y1 - y0);
        let mut crop = Vec::with_capacity(cw * ch);
        for y in y0..y1 {
            crop.extend_from_slice(&gray.px[y * gray.w + x0..y * gray.w + x1]);
        }
        let origin = (x0 as f32, y0 as f32);
        let (buf, w, h, scale) = if region.unit < self.config.upscale_below_px {
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
            let found = self.pass(&g, pass, origin, scale, ReadKind::Searched);
            if !found.is_empty() {
                return found;
            }
        }
        Vec::new()
    }

    /// One `rqrr` run on a buffer with one binarisation; coordinates mapped back to the frame.
    fn pass(
        &self,
        g: &Gray,
        how: Binarize,
        origin: (f32, f32),
        scale: f32,
        read: ReadKind,
    ) -> Vec<Detection> {
        let raws = match how {
            Binarize::Native => self.contained(|| {
                decode_all!(
                    self,
                    rqrr::PreparedImage::prepare_from_greyscale(g.w, g.h, |x, y| g.px[y * g.w + x])
                )
            }),
            Binarize::Otsu => {
                let t = otsu(g.px);
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
                read,
            })
            .collect()
    }

    /// Runs `f`, containing a panic (counted, silenced on this thread).
    fn contained<T>(&self, f: impl FnOnce() -> T) -> Option<T> {
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

    /// Re-reads a code where `hint` says it is: samples its module grid through the homography
    /// of its corners and decodes that. `None` if it does not read there.
    pub fn reread(&self, image: &GrayImage, hint: &Detection) -> Option<Detection> {
        let n = hint.modules();
        let nf = n as f64;
        let to = hint.corners.map(|c| (f64::from(c.0), f64::from(c.1)));
        let h = Homography::from_points([(0.0, 0.0), (nf, 0.0), (nf, nf), (0.0, nf)], to)?;
        let g = Gray {
            px: image.as_raw(),
            w: image.width() as usize,
            h: image.height() as usize,
        };
        let (samples, t) = sample_grid(&g, &h, n)?;
        if pattern_mismatch(&samples, t, n) > 0.25 {
            return None;
        }
        let (meta, text) = self.decode_samples(&samples, t, n)?;
        Some(Detection {
            text,
            corners: hint.corners,
            version: u8::try_from(meta.version.0).unwrap_or(hint.version),
            ecc: Ecc::from_format_bits(meta.ecc_level),
            read: ReadKind::Reread,
        })
    }

    /// Finder patterns in the rows of `active` blocks (all when `None`).
    fn find_finders(&self, g: &Gray, stats: &BlockStats, active: Option<&[bool]>) -> Vec<Finder> {
        let mut hits: Vec<Finder> = Vec::new();
        let step = self.config.row_step.max(1);
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for y in (0..g.h).step_by(step) {
            let by = y >> BLOCK_SHIFT;
            // The spans of active blocks on this block row.
            let mut bx = 0;
            while bx < stats.bw {
                let is_active = |bx: usize| active.is_none_or(|a| a[by * stats.bw + bx]);
                if !is_active(bx) {
                    bx += 1;
                    continue;
                }
                let start = bx;
                while bx < stats.bw && is_active(bx) {
                    bx += 1;
                }
                let x0 = start << BLOCK_SHIFT;
                let x1 = (bx << BLOCK_SHIFT).min(g.w);
                self.scan_row(g, stats, y, x0, x1, &mut runs, &mut hits);
            }
        }
        cluster_finders(hits, step)
    }

    #[allow(clippy::too_many_arguments)]
    fn scan_row(
        &self,
        g: &Gray,
        stats: &BlockStats,
        y: usize,
        x0: usize,
        x1: usize,
        runs: &mut Vec<(usize, usize)>,
        hits: &mut Vec<Finder>,
    ) {
        let row = &g.px[y * g.w..(y + 1) * g.w];
        let brow = (y >> BLOCK_SHIFT) * stats.bw;
        let dark = |x: usize| {
            let b = brow + (x >> BLOCK_SHIFT);
            stats.ok[b] && row[x] < stats.thr[b]
        };
        runs.clear();
        let mut color = dark(x0);
        let mut start = x0;
        let first_dark = color;
        for x in x0 + 1..x1 {
            let c = dark(x);
            if c != color {
                runs.push((start, x - start));
                start = x;
                color = c;
            }
        }
        runs.push((start, x1 - start));
        let offset = usize::from(!first_dark);
        let mut i = offset;
        while i + 4 < runs.len() {
            let l = [
                runs[i].1,
                runs[i + 1].1,
                runs[i + 2].1,
                runs[i + 3].1,
                runs[i + 4].1,
            ];
            if let Some(unit) = self.finder_ratio(l) {
                let cx = runs[i + 2].0 as f32 + runs[i + 2].1 as f32 / 2.0;
                if let Some((cy, vunit)) = self.cross_check(g, stats, cx as usize, y, unit) {
                    hits.push(Finder {
                        x: cx,
                        y: cy,
                        unit: (unit + vunit) / 2.0,
                        votes: 1,
                    });
                }
            }
            i += 2;
        }
    }

    /// The module size if these five runs look like a finder's 1:1:3:1:1.
    fn finder_ratio(&self, l: [usize; 5]) -> Option<f32> {
        let total: usize = l.iter().sum();
        let unit = total as f32 / 7.0;
        if unit < self.config.min_module_px || unit > self.config.max_module_px {
            return None;
        }
        let tol = unit * 0.6 + 0.5;
        let single = |v: usize| (v as f32 - unit).abs() <= tol;
        let center = (l[2] as f32 - 3.0 * unit).abs() <= unit * 1.2 + 0.5;
        (single(l[0]) && single(l[1]) && single(l[3]) && single(l[4]) && center).then_some(unit)
    }

    /// Checks a horizontal finder hit vertically; gives the centre's y and the module size.
    fn cross_check(
        &self,
        g: &Gray,
        stats: &BlockStats,
        x: usize,
        y: usize,
        unit: f32,
    ) -> Option<(f32, f32)> {
        let dark = |y: usize| {
            let b = (y >> BLOCK_SHIFT) * stats.bw + (x >> BLOCK_SHIFT);
            stats.ok[b] && g.px[y * g.w + x] < stats.thr[b]
        };
        if !dark(y) {
            return None;
        }
        let limit = (unit * 5.0) as usize + 2;
        // Up: centre, light ring, dark ring.
        let mut counts = [0usize; 5];
        let mut yy = y as isize;
        for (slot, want) in [(2usize, true), (1, false), (0, true)] {
            while yy >= 0 && dark(yy as usize) == want && counts[slot] <= limit {
                counts[slot] += 1;
                yy -= 1;
            }
            if counts[slot] == 0 || counts[slot] > limit {
                return None;
            }
        }
        let top_of_center = y - counts[2] + 1;
        let mut yy = y + 1;
        let mut center_down = 0;
        while yy < g.h && dark(yy) && center_down <= limit {
            center_down += 1;
            yy += 1;
        }
        counts[2] += center_down;
        for (slot, want) in [(3usize, false), (4, true)] {
            while yy < g.h && dark(yy) == want && counts[slot] <= limit {
                counts[slot] += 1;
                yy += 1;
            }
            if counts[slot] == 0 || counts[slot] > limit {
                return None;
            }
        }
        let vunit = self.finder_ratio(counts)?;
        if vunit > unit * 2.0 || vunit < unit * 0.5 {
            return None;
        }
        let cy = top_of_center as f32 + counts[2] as f32 / 2.0;
        Some((cy, vunit))
    }
}

thread_local! {
    /// Whether a panic on this thread is one of rqrr's, being contained.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}
static INSTALL_HOOK: Once = Once::new();

/// Block size for thresholds and change detection: 1 << 4 = 16 pixels.
const BLOCK_SHIFT: usize = 4;

/// Per 16 × 16 block: mean, local threshold, and whether there is contrast enough.
pub(crate) struct BlockStats {
    pub(crate) bw: usize,
    pub(crate) bh: usize,
    pub(crate) mean: Vec<u8>,
    thr: Vec<u8>,
    ok: Vec<bool>,
}

impl BlockStats {
    fn of(g: &Gray, min_contrast: u8) -> BlockStats {
        let bs = 1 << BLOCK_SHIFT;
        let (bw, bh) = (g.w.div_ceil(bs), g.h.div_ceil(bs));
        let mut sum = vec![0u32; bw * bh];
        let mut count = vec![0u32; bw * bh];
        let mut lo = vec![255u8; bw * bh];
        let mut hi = vec![0u8; bw * bh];
        // Every second row is enough for block statistics.
        for y in (0..g.h).step_by(2) {
            let row = &g.px[y * g.w..(y + 1) * g.w];
            let brow = (y >> BLOCK_SHIFT) * bw;
            for (bx, chunk) in row.chunks(bs).enumerate() {
                let b = brow + bx;
                sum[b] += chunk.iter().map(|&v| u32::from(v)).sum::<u32>();
                count[b] += chunk.len() as u32;
                lo[b] = lo[b].min(chunk.iter().copied().min().unwrap_or(255));
                hi[b] = hi[b].max(chunk.iter().copied().max().unwrap_or(0));
            }
        }
        let mean: Vec<u8> = sum
            .iter()
            .zip(&count)
            .map(|(s, c)| (s / (*c).max(1)) as u8)
            .collect();
        let mut thr = vec![0u8; bw * bh];
        let mut ok = vec![false; bw * bh];
        for by in 0..bh {
            for bx in 0..bw {
                let (mut s, mut n) = (0u32, 0u32);
                let (mut l, mut hh) = (255u8, 0u8);
                for yy in by.saturating_sub(2)..(by + 3).min(bh) {
                    for xx in bx.saturating_sub(2)..(bx + 3).min(bw) {
                        s += u32::from(mean[yy * bw + xx]);
                        n += 1;
                        if yy + 1 >= by && yy <= by + 1 && xx + 1 >= bx && xx <= bx + 1 {
                            l = l.min(lo[yy * bw + xx]);
                            hh = hh.max(hi[yy * bw + xx]);
                        }
                    }
                }
                let m = (s / n.max(1)) as u8;
                // Half way between the local mean and the local mid-range: robust to a code
                // that fills most of the window.
                let mid = ((u16::from(l) + u16::from(hh)) / 2) as u8;
                thr[by * bw + bx] = ((u16::from(m) + u16::from(mid)) / 2) as u8;
                ok[by * bw + bx] = hh.saturating_sub(l) >= min_contrast;
            }
        }
        BlockStats {
            bw,
            bh,
            mean,
            thr,
            ok,
        }
    }
}

/// What [`Detector::decode_regions`] did.
struct Decoded {
    found: Vec<Detection>,
    /// Crops not tried (over budget).
    left: Vec<Region>,
    /// Crops tried that read nothing.
    failed: Vec<Region>,
    /// Crops tried.
    slow: usize,
}

/// A finder pattern's centre and module size.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Finder {
    x: f32,
    y: f32,
    unit: f32,
    votes: u32,
}

/// Merges row hits of the same finder; keeps finders seen on two rows or more.
fn cluster_finders(mut hits: Vec<Finder>, step: usize) -> Vec<Finder> {
    hits.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x)));
    let mut clusters: Vec<(Finder, f32, f32, f32)> = Vec::new(); // finder, sum x, sum y, sum unit
    for h in hits {
        let found = clusters.iter_mut().rev().take(64).find(|(c, ..)| {
            (c.x - h.x).abs() < c.unit * 2.0 && (c.y - h.y).abs() < c.unit * 2.0 && {
                let r = c.unit / h.unit;
                (0.6..1.67).contains(&r)
            }
        });
        match found {
            Some((c, sx, sy, su)) => {
                *sx += h.x;
                *sy += h.y;
                *su += h.unit;
                c.votes += 1;
                let n = c.votes as f32;
                c.x = *sx / n;
                c.y = *sy / n;
                c.unit = *su / n;
            }
            None => clusters.push((h, h.x, h.y, h.unit)),
        }
    }
    clusters
        .into_iter()
        .map(|(c, ..)| c)
        .filter(|c| c.votes >= 2 || c.unit * 3.0 < 2.0 * step as f32)
        .collect()
}

/// Groups finders into candidate regions: threes at a right angle with equal legs make one
/// code; a finder left over gets a region large enough for any small code it may belong to.
fn group_finders(finders: &[Finder]) -> Vec<Region> {
    let n = finders.len();
    let mut triples: Vec<(f32, usize, usize, usize)> = Vec::new();
    for i in 0..n {
        let fi = finders[i];
        let near: Vec<usize> = (0..n)
            .filter(|&j| {
                let fj = finders[j];
                let d = ((fj.x - fi.x).powi(2) + (fj.y - fi.y).powi(2)).sqrt();
                let r = fj.unit / fi.unit;
                j != i && (0.6..1.67).contains(&r) && d >= 10.0 * fi.unit && d <= 60.0 * fi.unit
            })
            .collect();
        for (a, &j) in near.iter().enumerate() {
            for &k in &near[a + 1..] {
                let (ax, ay) = (finders[j].x - fi.x, finders[j].y - fi.y);
                let (bx, by) = (finders[k].x - fi.x, finders[k].y - fi.y);
                let (la, lb) = ((ax * ax + ay * ay).sqrt(), (bx * bx + by * by).sqrt());
                let legs = (la - lb).abs() / la.max(lb);
                let cos = ((ax * bx + ay * by) / (la * lb)).abs();
                if legs < 0.25 && cos < 0.3 {
                    triples.push((legs + cos, i, j, k));
                }
            }
        }
    }
    triples.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut used = vec![false; n];
    let mut regions = Vec::new();
    for (_, i, j, k) in triples {
        if used[i] || used[j] || used[k] {
            continue;
        }
        used[i] = true;
        used[j] = true;
        used[k] = true;
        let (fi, fj, fk) = (finders[i], finders[j], finders[k]);
        let fourth = (fj.x + fk.x - fi.x, fj.y + fk.y - fi.y);
        let xs = [fi.x, fj.x, fk.x, fourth.0];
        let ys = [fi.y, fj.y, fk.y, fourth.1];
        let unit = (fi.unit + fj.unit + fk.unit) / 3.0;
        let m = unit * 9.0;
        // Top right is the one clockwise of top left's other neighbour (y points down).
        let cross = (fj.x - fi.x) * (fk.y - fi.y) - (fj.y - fi.y) * (fk.x - fi.x);
        let (tr, bl) = if cross > 0.0 { (fj, fk) } else { (fk, fj) };
        regions.push(Region {
            triple: Some([(fi.x, fi.y), (tr.x, tr.y), (bl.x, bl.y)]),
            rect: [
                xs.iter().copied().fold(f32::INFINITY, f32::min) - m,
                ys.iter().copied().fold(f32::INFINITY, f32::min) - m,
                xs.iter().copied().fold(f32::NEG_INFINITY, f32::max) + m,
                ys.iter().copied().fold(f32::NEG_INFINITY, f32::max) + m,
            ],
            unit,
        });
    }
    for (i, f) in finders.iter().enumerate() {
        if used[i] {
            continue;
        }
        // Alone (its partners were missed): the code may lie on any side of it.
        let m = f.unit * 26.0;
        regions.push(Region {
            rect: [f.x - m, f.y - m, f.x + m, f.y + m],
            unit: f.unit,
            triple: None,
        });
    }
    regions
}

/// Whether a region is already explained by a known code (its centre lies on one).
fn explained(region: &Region, known: &[Detection]) -> bool {
    let c = (
        (region.rect[0] + region.rect[2]) / 2.0,
        (region.rect[1] + region.rect[3]) / 2.0,
    );
    known.iter().any(|d| d.contains(c, 1.2))
}

/// The region to search for a code that was at `d` and did not re-read there.
fn around(d: &Detection) -> Region {
    let b = d.bbox();
    let m = d.side_px() * 0.5;
    Region {
        rect: [b[0] - m, b[1] - m, b[2] + m, b[3] + m],
        unit: d.module_px(),
        triple: None,
    }
}

/// Merges regions that overlap by more than half of the smaller one (no point decoding the
/// same pixels twice); sorted by position for a stable order.
fn merge_regions(mut regions: Vec<Region>) -> Vec<Region> {
    let area = |r: &[f32; 4]| (r[2] - r[0]).max(0.0) * (r[3] - r[1]).max(0.0);
    let mut changed = true;
    while changed {
        changed = false;
        'outer: for i in 0..regions.len() {
            for j in i + 1..regions.len() {
                let (a, b) = (regions[i].rect, regions[j].rect);
                let inter = [
                    a[0].max(b[0]),
                    a[1].max(b[1]),
                    a[2].min(b[2]),
                    a[3].min(b[3]),
                ];
                if area(&inter) > 0.5 * area(&a).min(area(&b)) {
                    let u = [
                        a[0].min(b[0]),
                        a[1].min(b[1]),
                        a[2].max(b[2]),
                        a[3].max(b[3]),
                    ];
                    regions[i] = Region {
                        rect: u,
                        unit: regions[i].unit.min(regions[j].unit),
                        triple: None,
                    };
                    regions.swap_remove(j);
                    changed = true;
                    break 'outer;
                }
            }
        }
    }
    regions.sort_by(|a, b| {
        a.rect[1]
            .total_cmp(&b.rect[1])
            .then(a.rect[0].total_cmp(&b.rect[0]))
    });
    regions
}

/// Drops repeated reads of one code (same text, centres closer than half its side) and sorts
/// by text, then position. Of two reads, a searched one (fresh corners) wins.
fn merge(mut found: Vec<Detection>) -> Vec<Detection> {
    found.sort_by(|a, b| {
        a.text
            .cmp(&b.text)
            .then(a.read.cmp(&b.read))
            .then(a.corners[0].1.total_cmp(&b.corners[0].1))
            .then(a.corners[0].0.total_cmp(&b.corners[0].0))
    });
    let mut out: Vec<Detection> = Vec::new();
    for d in found {
        let c = d.center();
        let dup = out.iter().any(|o| {
            let oc = o.center();
            o.text == d.text
                && ((oc.0 - c.0).powi(2) + (oc.1 - c.1).powi(2)).sqrt()
                    < o.side_px().max(d.side_px()) * 0.5
        });
        if !dup {
            out.push(d);
        }
    }
    out.sort_by(|a, b| {
        a.text
            .cmp(&b.text)
            .then(a.corners[0].1.total_cmp(&b.corners[0].1))
            .then(a.corners[0].0.total_cmp(&b.corners[0].0))
    });
    out
}

/// The `n` × `n` module centres sampled through `h` (module units to pixels), and their Otsu
/// threshold; `None` if the grid leaves the frame.
fn sample_grid(g: &Gray, h: &Homography, n: usize) -> Option<(Vec<u8>, u8)> {
    let mut samples = Vec::with_capacity(n * n);
    for y in 0..n {
        for x in 0..n {
            let p = h.map((x as f64 + 0.5, y as f64 + 0.5))?;
            samples.push(bilinear(g.px, g.w, g.h, p)?);
        }
    }
    let t = otsu(&samples);
    Some((samples, t))
}

/// Whether module (`x`, `y`) of a finder pattern is dark (outside it: the light separator).
fn finder_module(x: isize, y: isize) -> bool {
    let ring = x == 0 || y == 0 || x == 6 || y == 6;
    let core = (2..=4).contains(&x) && (2..=4).contains(&y);
    (0..7).contains(&x) && (0..7).contains(&y) && (ring || core)
}

/// The share of function-pattern modules (three finders with separators, two timing lines)
/// that do not look as they must: near 0 for a grid laid right, near 0.5 for noise.
fn pattern_mismatch(samples: &[u8], t: u8, n: usize) -> f32 {
    let dark = |x: usize, y: usize| samples[y * n + x] <= t;
    let (mut checked, mut wrong) = (0u32, 0u32);
    let origins = [(0isize, 0isize), (n as isize - 7, 0), (0, n as isize - 7)];
    for (ox, oy) in origins {
        // The finder and the separator ring around it.
        for fy in -1..=7isize {
            for fx in -1..=7isize {
                let (gx, gy) = (ox + fx, oy + fy);
                if gx < 0 || gy < 0 || gx >= n as isize || gy >= n as isize {
                    continue;
                }
                checked += 1;
                if dark(gx as usize, gy as usize) != finder_module(fx, fy) {
                    wrong += 1;
                }
            }
        }
    }
    for i in 8..n - 8 {
        checked += 2;
        let want = i % 2 == 0;
        wrong += u32::from(dark(i, 6) != want) + u32::from(dark(6, i) != want);
    }
    wrong as f32 / checked.max(1) as f32
}

/// Lays the grid again through the alignment pattern found near where `h` puts it: the module
/// grid through the three finder centres and the alignment centre (a full homography).
fn align(
    g: &Gray,
    h: &Homography,
    n: usize,
    samples: &[u8],
    t: u8,
    finders: [Point; 3],
) -> Option<Homography> {
    let _ = samples;
    let c = (n as f64 - 6.5, n as f64 - 6.5);
    let mut best = (0u32, (0.0, 0.0));
    for dy in -3..=3 {
        for dx in -3..=3 {
            let at = (c.0 + f64::from(dx) * 0.5, c.1 + f64::from(dy) * 0.5);
            let mut score = 0;
            for y in -2i32..=2 {
                for x in -2i32..=2 {
                    let want = x.abs() == 2 || y.abs() == 2 || (x == 0 && y == 0);
                    let p = h.map((at.0 + f64::from(x), at.1 + f64::from(y)))?;
                    let v = bilinear(g.px, g.w, g.h, p)?;
                    score += u32::from((v <= t) == want);
                }
            }
            if score > best.0 {
                best = (score, at);
            }
        }
    }
    if best.0 < 21 {
        return None;
    }
    let found = h.map(best.1)?;
    let nf = n as f64;
    Homography::from_points(
        [(3.5, 3.5), (nf - 3.5, 3.5), (3.5, nf - 3.5), c],
        [finders[0], finders[1], finders[2], found],
    )
}

/// Decodes a grid to text: UTF-8 when the bytes are, else Shift_JIS when they are, else
/// Latin-1 (what QR readers assume without an ECI marker).
fn decode_text<G: BitGrid>(
    grid: &rqrr::Grid<G>,
) -> Result<(rqrr::MetaData, String), rqrr::DeQRError> {
    let mut bytes = Vec::new();
    let meta = grid.decode_to(&mut bytes)?;
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let bytes = e.into_bytes();
            let (sjis, _, bad) = encoding_rs::SHIFT_JIS.decode(&bytes);
            if bad {
                bytes.iter().map(|&b| char::from(b)).collect()
            } else {
                sjis.into_owned()
            }
        }
    };
    Ok((meta, text))
}

fn bilinear(px: &[u8], w: usize, h: usize, p: Point) -> Option<u8> {
    let (x, y) = (p.0 - 0.5, p.1 - 0.5);
    if x < 0.0 || y < 0.0 || x >= (w - 1) as f64 || y >= (h - 1) as f64 {
        return None;
    }
    let (xi, yi) = (x as usize, y as usize);
    let (fx, fy) = (x - xi as f64, y - yi as f64);
    let at = |xx: usize, yy: usize| f64::from(px[yy * w + xx]);
    let top = at(xi, yi) * (1.0 - fx) + at(xi + 1, yi) * fx;
    let bottom = at(xi, yi + 1) * (1.0 - fx) + at(xi + 1, yi + 1) * fx;
    Some((top * (1.0 - fy) + bottom * fy).round() as u8)
}

/// A 2× bilinear upscale.
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

/// Otsu's threshold: pixels at or below it are dark.
fn otsu(px: &[u8]) -> u8 {
    let mut hist = [0u64; 256];
    for &v in px {
        hist[usize::from(v)] += 1;
    }
    let total = px.len() as f64;
    let sum_all: f64 = hist
        .iter()
        .enumerate()
        .map(|(i, &c)| i as f64 * c as f64)
        .sum();
    let (mut w0, mut sum0) = (0.0, 0.0);
    let (mut best, mut best_t) = (-1.0, 127u8);
    for (t, &c) in hist.iter().enumerate() {
        w0 += c as f64;
        sum0 += t as f64 * c as f64;
        let w1 = total - w0;
        if w0 == 0.0 || w1 == 0.0 {
            continue;
        }
        let (m0, m1) = (sum0 / w0, (sum_all - sum0) / w1);
        let between = w0 * w1 * (m0 - m1) * (m0 - m1);
        if between > best {
            best = between;
            best_t = t as u8;
        }
    }
    best_t
}

/// Dark where a pixel is below the mean of its (2r+1)² window, less `bias` percent.
fn local_mean(g: &Gray, radius: usize, bias: u8) -> Vec<bool> {
    let (w, h) = (g.w, g.h);
    let mut integral = vec![0u64; (w + 1) * (h + 1)];
    for y in 0..h {
        let mut row = 0u64;
        for x in 0..w {
            row += u64::from(g.px[y * w + x]);
            integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1] + row;
        }
    }
    let mut out = vec![false; w * h];
    let k = 100 - u64::from(bias.min(100));
    for y in 0..h {
        let (y0, y1) = (y.saturating_sub(radius), (y + radius + 1).min(h));
        for x in 0..w {
            let (x0, x1) = (x.saturating_sub(radius), (x + radius + 1).min(w));
            let s = integral[y1 * (w + 1) + x1] + integral[y0 * (w + 1) + x0]
                - integral[y0 * (w + 1) + x1]
                - integral[y1 * (w + 1) + x0];
            let n = ((x1 - x0) * (y1 - y0)) as u64;
            out[y * w + x] = u64::from(g.px[y * w + x]) * n * 100 < s * k;
        }
    }
    out
}

/// Settings of a [`Scanner`].
#[derive(Clone, Debug, PartialEq)]
pub struct ScanConfig {
    /// Search the whole frame every this many frames (the first frame always).
    pub full_search_every: u64,
    /// A block whose mean grey level moves by more than this has changed.
    pub change_level: u8,
    /// A changed block is searched for this many frames (things settle after a move).
    pub settle_frames: u8,
    /// Re-read every carried-over code every this many frames even if nothing changed.
    pub verify_every: u64,
    /// At most this many slow decodes (`rqrr` on a crop, a few milliseconds each) a frame; the
    /// rest wait for the next frames. Finder triples read by grid sampling do not count.
    pub max_slow_decodes: usize,
    /// A crop that read nothing is not tried again for this many frames unless its pixels
    /// change.
    pub retry_failed_after: u64,
}

impl Default for ScanConfig {
    fn default() -> Self {
        ScanConfig {
            full_search_every: 30,
            change_level: 6,
            settle_frames: 3,
            verify_every: 15,
            max_slow_decodes: 1,
            retry_failed_after: 90,
        }
    }
}

/// What the last [`Scanner::scan`] did (for benchmarks and logs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScanStats {
    /// Whether the whole frame was searched.
    pub full_search: bool,
    /// Blocks searched for finder patterns.
    pub blocks_searched: usize,
    /// Codes carried over unchanged.
    pub unchanged: usize,
    /// Codes re-read where they were.
    pub reread: usize,
    /// Codes found by searching.
    pub searched: usize,
    /// Finder patterns found.
    pub finders: usize,
    /// Slow decodes (`rqrr` on a crop) run.
    pub slow_decodes: usize,
    /// Time spent on block statistics and change detection.
    pub blocks_time: Duration,
    /// Time spent carrying over and re-reading the last frame's codes.
    pub reread_time: Duration,
    /// Time spent scanning for finder patterns and grouping them.
    pub finder_time: Duration,
    /// Time spent decoding candidate regions (fast and slow).
    pub decode_time: Duration,
}

/// Follows the codes of a stream of frames (one camera): cheap on still scenes. See the
/// [module docs](self).
#[derive(Debug, Default)]
pub struct Scanner {
    detector: Detector,
    config: ScanConfig,
    frames: u64,
    dims: (usize, usize),
    means: Vec<u8>,
    dirty: Vec<u8>,
    last: Vec<Detection>,
    /// Crops over last frame's budget.
    pending: Vec<Region>,
    /// Crops that read nothing, and the frame they were tried.
    failed: Vec<(Region, u64)>,
    stats: ScanStats,
}

impl Scanner {
    /// A scanner with these settings.
    pub fn new(detector: Detector, config: ScanConfig) -> Scanner {
        Scanner {
            detector,
            config,
            ..Scanner::default()
        }
    }

    /// The detector inside (e.g. for [`Detector::panics_contained`]).
    pub fn detector(&self) -> &Detector {
        &self.detector
    }

    /// What the last scan did.
    pub fn stats(&self) -> &ScanStats {
        &self.stats
    }

    /// The codes of the last frame.
    pub fn last(&self) -> &[Detection] {
        &self.last
    }

    /// Forgets the past: the next frame is searched whole.
    pub fn reset(&mut self) {
        self.frames = 0;
        self.last.clear();
        self.means.clear();
        self.pending.clear();
        self.failed.clear();
    }

    /// Every code in this frame (the next of the stream), sorted by text, then position.
    pub fn scan(&mut self, image: &GrayImage) -> Vec<Detection> {
        let g = Gray {
            px: image.as_raw(),
            w: image.width() as usize,
            h: image.height() as usize,
        };
        let mut stats = ScanStats::default();
        if g.w < 21 || g.h < 21 {
            self.last.clear();
            self.stats = stats;
            return Vec::new();
        }
        let clock = Instant::now();
        let blocks = BlockStats::of(&g, self.detector.config.min_contrast);
        let n = blocks.bw * blocks.bh;
        let full = self
            .frames
            .is_multiple_of(self.config.full_search_every.max(1))
            || self.dims != (g.w, g.h)
            || self.means.len() != n;
        if self.dims != (g.w, g.h) || self.means.len() != n {
            self.last.clear();
            self.pending.clear();
            self.failed.clear();
        }
        if full {
            self.dirty = vec![self.config.settle_frames; n];
        } else {
            for b in 0..n {
                if blocks.mean[b].abs_diff(self.means[b]) > self.config.change_level {
                    self.dirty[b] = self.config.settle_frames;
                }
            }
        }
        // Changed now: the blocks that moved this frame (for carrying codes over).
        let fresh = self.means.len() != n;
        let changed_now: Vec<bool> = (0..n)
            .map(|b| {
                fresh
                    || blocks.mean[b].abs_diff(self.means.get(b).copied().unwrap_or(0))
                        > self.config.change_level
            })
            .collect();
        // Active: dirty blocks and their neighbours.
        let mut active = vec![false; n];
        for by in 0..blocks.bh {
            for bx in 0..blocks.bw {
                if self.dirty[by * blocks.bw + bx] > 0 {
                    for yy in by.saturating_sub(1)..(by + 2).min(blocks.bh) {
                        for xx in bx.saturating_sub(1)..(bx + 2).min(blocks.bw) {
                            active[yy * blocks.bw + xx] = true;
                        }
                    }
                }
            }
        }
        stats.full_search = full;
        stats.blocks_searched = active.iter().filter(|a| **a).count();

        stats.blocks_time = clock.elapsed();
        let clock = Instant::now();
        // Codes of the last frame: carried over, re-read, or searched for around.
        let mut kept = Vec::new();
        let mut regions = Vec::new();
        let verify = self.frames % self.config.verify_every.max(1);
        for (i, d) in self.last.iter().enumerate() {
            let b = d.bbox();
            let bx0 = (b[0].max(0.0) as usize >> BLOCK_SHIFT).min(blocks.bw - 1);
            let by0 = (b[1].max(0.0) as usize >> BLOCK_SHIFT).min(blocks.bh - 1);
            let bx1 = (b[2].max(0.0) as usize >> BLOCK_SHIFT).min(blocks.bw - 1);
            let by1 = (b[3].max(0.0) as usize >> BLOCK_SHIFT).min(blocks.bh - 1);
            let moved =
                (by0..=by1).any(|by| (bx0..=bx1).any(|bx| changed_now[by * blocks.bw + bx]));
            if !moved && (i as u64) % self.config.verify_every.max(1) != verify {
                let mut d = d.clone();
                d.read = ReadKind::Unchanged;
                kept.push(d);
                stats.unchanged += 1;
            } else if let Some(d) = self.detector.reread(image, d) {
                kept.push(d);
                stats.reread += 1;
            } else {
                regions.push(around(d));
            }
        }
        stats.reread_time = clock.elapsed();
        let clock = Instant::now();
        let finders = self.detector.find_finders(&g, &blocks, Some(&active));
        stats.finders = finders.len();
        regions.extend(
            group_finders(&finders)
                .into_iter()
                .filter(|r| !explained(r, &kept)),
        );
        regions.append(&mut self.pending);
        stats.finder_time = clock.elapsed();
        let clock = Instant::now();
        // Forget failures whose pixels changed, or that are old; skip the others.
        let frame = self.frames;
        let retry = self.config.retry_failed_after;
        let bw = blocks.bw;
        let touches_change = |r: &Region| {
            let bx0 = (r.rect[0].max(0.0) as usize >> BLOCK_SHIFT).min(blocks.bw - 1);
            let by0 = (r.rect[1].max(0.0) as usize >> BLOCK_SHIFT).min(blocks.bh - 1);
            let bx1 = (r.rect[2].max(0.0) as usize >> BLOCK_SHIFT).min(blocks.bw - 1);
            let by1 = (r.rect[3].max(0.0) as usize >> BLOCK_SHIFT).min(blocks.bh - 1);
            (by0..=by1).any(|by| (bx0..=bx1).any(|bx| changed_now[by * bw + bx]))
        };
        self.failed
            .retain(|(r, at)| (full || !touches_change(r)) && frame.saturating_sub(*at) < retry);
        let failed = &self.failed;
        // Slow decodes only where a crop failed no recent try, and not where things move
        // (a hand passing): those wait for the scene to settle.
        let skip_slow = |r: &Region| {
            let c = ((r.rect[0] + r.rect[2]) / 2.0, (r.rect[1] + r.rect[3]) / 2.0);
            let failed_before = failed.iter().any(|(f, _)| {
                c.0 >= f.rect[0] && c.0 <= f.rect[2] && c.1 >= f.rect[1] && c.1 <= f.rect[3]
            });
            failed_before || (!fresh && touches_change(r))
        };
        let decoded = self.detector.decode_regions(
            &g,
            regions,
            Some(self.config.max_slow_decodes),
            &skip_slow,
        );
        stats.decode_time = clock.elapsed();
        stats.slow_decodes = decoded.slow;
        stats.searched = decoded.found.len();
        self.pending = decoded.left;
        self.failed
            .extend(decoded.failed.into_iter().map(|r| (r, frame)));
        kept.extend(decoded.found);
        let result = merge(kept);

        for d in &mut self.dirty {
            *d = d.saturating_sub(1);
        }
        self.means = blocks.mean;
        self.dims = (g.w, g.h);
        self.frames += 1;
        self.last = result.clone();
        self.stats = stats;
        result
    }
}
