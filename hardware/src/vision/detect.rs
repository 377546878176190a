//! The QR detector: every code in view, with its text and its corners in frame pixels.
//!
//! All ours but the slow read's locator (`rqrr`'s), in four parts, each linear in the pixels or
//! bounded per candidate:
//!
//! - **Locate** ([`locate`](self)). 16 × 16-pixel block statistics over the frame (mean, a local
//!   threshold, a contrast flag); every second row run-length coded against them; five runs in
//!   1:1:3:1:1 (dark-centred, or light-centred for an inverted code) checked vertically and
//!   clustered into finder patterns; finders grouped in threes (a right angle, two equal legs,
//!   alike module sizes) among each one's nearest fellows, best geometry first.
//! - **Sample** ([`sample`](self)). A triple's module grid is laid through its finder centres
//!   (the version from their distance, or read from the version blocks of large codes),
//!   sampled at module centres, checked against the finder, separator and timing patterns
//!   (noise and wrong triples fail here, cheaply), thresholded three ways in turn (Otsu over
//!   the grid, the frame's local threshold, a 7 × 7-module mean) and decoded — mirrored too;
//!   a grid that does not decode is laid again through its alignment pattern. Tens of
//!   microseconds a code. A triple is tried only if none of its finders belongs to a code
//!   already read, so false triples between neighbouring codes cost one failed check each.
//! - **Symbol** ([`symbol`](self)). Module bits to text: format, code words, Reed–Solomon over
//!   log tables, every data segment mode; a few thousand table look-ups a code.
//! - **Finders left over.** In [`Detector::detect`], a finder no code took gets a finer look:
//!   its region scanned again, every row, and the triples among the finders found there read
//!   by their grids. A finder with no triple there (card art, noise) gets nothing more.
//!   Tracking ([`Scanner::scan`], [`Detector::detect_hinted`]) gives it a slow read instead.
//! - **Slow read** ([`decode`](self)). A finder left over whose finer look saw a triple that
//!   did not read, or a triple of the whole-frame scan that did not read, gets a crop decoded by `rqrr`'s own locator with three
//!   binarisations; crops are capped at [`DetectorConfig::max_crop_px`] pixels (small modules
//!   are upscaled 2× inside that cap; the whole frame never is), so one slow read costs a
//!   few milliseconds at most.
//!
//! Every search runs against a deadline ([`DetectorConfig::detect_budget`] for
//! [`Detector::detect`], [`ScanConfig::frame_budget`] for [`Scanner::scan`]), checked between
//! rows of the finder scan, between candidates and between `rqrr` passes; with the counts of
//! finders and triples capped, no frame — noise, a wall of finder look-alikes — costs more.
//!
//! [`Scanner`] adds time: cards lie still. It keeps the last frame's detections and compares
//! 16 × 16 block means between frames: a code whose blocks did not change is carried over; one
//! whose blocks changed is re-read *where it was* by sampling its module grid directly (a few
//! hundred pixel reads and one Reed–Solomon decode); only if that fails is its neighbourhood
//! searched again. The finder scan itself runs only over changed blocks (and the two frames
//! after a change, while things settle), and over the whole frame every
//! [`ScanConfig::full_search_every`] frames.
//!
//! `rqrr` 0.11 can panic on some real images (an assertion in its geometry). Every call into it
//! is contained with `catch_unwind`; the attempt is skipped and counted
//! ([`Detector::panics_contained`]). While such a call runs, the panic message of *that thread*
//! is silenced by a panic hook installed once, which hands every other panic to the hook that was
//! there before.

mod decode;
mod locate;
mod sample;
mod symbol;

use image::GrayImage;
use locate::{BLOCK_SHIFT, BlockStats, Finder};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

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
    /// Crops whose codes have fewer pixels a module than this are upscaled twice first (within
    /// [`max_crop_px`](Self::max_crop_px)).
    pub upscale_below_px: f32,
    /// Smallest module (in pixels) the finder scan looks for.
    pub min_module_px: f32,
    /// Largest module (in pixels) the finder scan looks for.
    pub max_module_px: f32,
    /// The finder scan reads every this many rows.
    pub row_step: usize,
    /// Blocks whose grey levels span less than this are taken as blank (no finder there).
    pub min_contrast: u8,
    /// The largest crop (in pixels, after any upscale) a slow read hands to `rqrr`: bounds
    /// what one slow read costs.
    pub max_crop_px: usize,
    /// At most this many slow reads in one [`Detector::detect`].
    pub max_slow_reads: usize,
    /// [`Detector::detect`] starts no new work after this long (what it read so far is kept).
    pub detect_budget: Duration,
}

impl Default for DetectorConfig {
    fn default() -> Self {
        DetectorConfig {
            upscale_below_px: 3.0,
            min_module_px: 1.2,
            max_module_px: 40.0,
            row_step: 2,
            min_contrast: 32,
            max_crop_px: 320 * 320,
            max_slow_reads: 8,
            detect_budget: Duration::from_millis(120),
        }
    }
}

/// Reads QR codes in images. Cheap to share between calls; see the [module docs](self).
#[derive(Debug, Default)]
pub struct Detector {
    config: DetectorConfig,
    panics: AtomicUsize,
}

/// A finder left over with modules of at least this many pixels gets a slow read only if one
/// of its diagonals crosses 1:1:3:1:1 (below, the diagonal is too coarse to tell).
const LONE_DIAGONAL_FROM_PX: f32 = 2.5;

/// A slow read is given no crop (and `detect` no whole picture) holding more finders than this.
const MAX_FINDERS_IN_CROP: usize = 12;

/// At most this many finders left over get the finer look for partners in one search (each
/// costs a scan of every row of its region).
const MAX_FINE_SCANS: usize = 24;

/// At most this many triples of the finer look are read by their grids.
const MAX_FINE_TRIPLES: usize = 4;

/// A point in this thread's CPU time after which no new work starts (none: no limit). CPU
/// time, not wall time: a frame gets the same work done however busy the machine is (the
/// camera thread then drops frames), and a budget means "this much of one core".
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadline(Option<Duration>);

impl Deadline {
    /// `budget` from now.
    fn after(budget: Duration) -> Deadline {
        Deadline(thread_cpu().checked_add(budget))
    }

    /// Whether it has passed.
    fn passed(&self) -> bool {
        self.0.is_some_and(|d| thread_cpu() >= d)
    }
}

/// This thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`).
#[cfg(unix)]
#[allow(unsafe_code)]
pub fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid, exclusive pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(
        ts.tv_sec.max(0) as u64,
        ts.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// This thread's CPU time; where there is no such clock, the time since the first call.
#[cfg(not(unix))]
pub fn thread_cpu() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// A grey buffer.
pub(crate) struct Gray<'a> {
    px: &'a [u8],
    w: usize,
    h: usize,
}

impl<'a> Gray<'a> {
    fn of(image: &'a GrayImage) -> Gray<'a> {
        Gray {
            px: image.as_raw(),
            w: image.width() as usize,
            h: image.height() as usize,
        }
    }
}

/// A region of the frame to decode: x0, y0, x1, y1 (pixels) and the module size guessed.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Region {
    rect: [f32; 4],
    unit: f32,
    /// The centres of its three finders, top left, top right, bottom left (when grouped).
    triple: Option<[(f32, f32); 3]>,
    /// Light on dark (an inverted code).
    light: bool,
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

    /// Every code in `image`, read from scratch: the finder scan over the whole frame, grid
    /// reads of the finder triples, slow reads of what is left (at most
    /// [`DetectorConfig::max_slow_reads`]), and — only when nothing was found — one slow read
    /// of the whole picture shrunk to [`DetectorConfig::max_crop_px`]. Cost linear in the
    /// pixels plus a bounded amount per candidate, and never past
    /// [`DetectorConfig::detect_budget`]. Sorted by text, then position.
    pub fn detect(&self, image: &GrayImage) -> Vec<Detection> {
        let gray = Gray::of(image);
        if gray.w < 21 || gray.h < 21 {
            return Vec::new();
        }
        let deadline = Deadline::after(self.config.detect_budget);
        let stats = BlockStats::of(&gray, self.config.min_contrast);
        let finders = self.find_finders(&gray, &stats, None, &deadline);
        let (mut found, slow) =
            self.read_finders(&gray, &stats, &finders, &[], Lone::FinerLook, &deadline);
        let mut budget = self.config.max_slow_reads;
        for region in merge_regions(slow) {
            if budget == 0 || deadline.passed() {
                break;
            }
            if explained(&region, &found) {
                continue;
            }
            budget -= 1;
            found.extend(self.decode_region(&gray, region, &deadline));
        }
        // The last resort, where the finder scan saw too little to go on (not where it saw a
        // crowd of finders and none made a code).
        if found.is_empty() && finders.len() <= 4 * MAX_FINDERS_IN_CROP && !deadline.passed() {
            found.extend(self.whole_picture(image, &deadline));
        }
        merge(found)
    }

    /// The last resort of [`detect`](Self::detect): `rqrr` on the whole picture, shrunk by a
    /// whole factor to at most [`DetectorConfig::max_crop_px`] pixels (both polarities).
    fn whole_picture(&self, image: &GrayImage, deadline: &Deadline) -> Vec<Detection> {
        let (w, h) = (image.width() as usize, image.height() as usize);
        let cap = self.config.max_crop_px.max(64 * 64);
        let k = (1..=64).find(|k| (w / k) * (h / k) <= cap).unwrap_or(64);
        let (sw, sh) = (w / k, h / k);
        if sw < 21 || sh < 21 {
            return Vec::new();
        }
        let small: Vec<u8> = if k == 1 {
            image.as_raw().clone()
        } else {
            let px = image.as_raw();
            let mut out = Vec::with_capacity(sw * sh);
            for y in 0..sh {
                for x in 0..sw {
                    let mut s = 0u32;
                    for yy in y * k..(y + 1) * k {
                        for xx in x * k..(x + 1) * k {
                            s += u32::from(px[yy * w + xx]);
                        }
                    }
                    out.push((s / (k * k) as u32) as u8);
                }
            }
            out
        };
        let g = Gray {
            px: &small,
            w: sw,
            h: sh,
        };
        let mut out = Vec::new();
        for light in [false, true] {
            let region = Region {
                rect: [0.0, 0.0, sw as f32, sh as f32],
                unit: self.config.upscale_below_px,
                triple: None,
                light,
            };
            out = self.decode_region(&g, region, deadline);
            if !out.is_empty() || deadline.passed() {
                break;
            }
        }
        let kf = k as f32;
        for d in &mut out {
            d.corners = d
                .corners
                .map(|(x, y)| ((x + 0.5) * kf - 0.5, (y + 0.5) * kf - 0.5));
        }
        out
    }

    /// Every code in `image`, using the previous frame's detections as hints: each hint is
    /// re-read where it was (falling back to a search around it), and the rest of the frame is
    /// searched for finder patterns not explained by a re-read code. Sorted by text, then
    /// position.
    pub fn detect_hinted(&self, image: &GrayImage, hints: &[Detection]) -> Vec<Detection> {
        let gray = Gray::of(image);
        if gray.w < 21 || gray.h < 21 {
            return Vec::new();
        }
        let deadline = Deadline::after(self.config.detect_budget);
        let mut kept = Vec::new();
        let mut lost = Vec::new();
        for hint in hints {
            match self.reread(image, hint) {
                Some(d) => kept.push(d),
                None => lost.push(hint.clone()),
            }
        }
        let stats = BlockStats::of(&gray, self.config.min_contrast);
        let finders = self.find_finders(&gray, &stats, None, &deadline);
        let (fast, mut regions) =
            self.read_finders(&gray, &stats, &finders, &kept, Lone::SlowRead, &deadline);
        regions.extend(lost.iter().map(around));
        let mut found = kept;
        found.extend(fast);
        found.extend(
            self.decode_regions(&gray, &stats, regions, None, &|_| false, &deadline)
                .found,
        );
        merge(found)
    }

    /// Reads the finder triples by grid sampling, best geometry first, each only if none of
    /// its finders belongs to a code already read (here or in `known`). Gives the codes read,
    /// and the regions left for slow reads: triples that did not read and finders left over,
    /// neither explained by a code read.
    fn read_finders(
        &self,
        g: &Gray,
        stats: &BlockStats,
        finders: &[Finder],
        known: &[Detection],
        lone: Lone,
        deadline: &Deadline,
    ) -> (Vec<Detection>, Vec<Region>) {
        let triples = locate::triples(finders);
        let mut used = vec![false; finders.len()];
        let mut found: Vec<Detection> = Vec::new();
        let mut failed: Vec<(locate::Triple, Region)> = Vec::new();
        for (k, t) in triples.iter().enumerate() {
            if t.ids.iter().any(|&i| used[i]) {
                continue;
            }
            if k % 8 == 7 && deadline.passed() {
                break;
            }
            let region = locate::triple_region(finders, t);
            if explained(&region, known) || explained(&region, &found) {
                continue;
            }
            let Some(corners) = region.triple else {
                continue;
            };
            let units = t.ids.map(|i| finders[i].unit);
            match self.read_triple(g, Some(stats), corners, units, region.light) {
                Some(d) => {
                    for i in t.ids {
                        used[i] = true;
                    }
                    found.push(d);
                }
                None => failed.push((*t, region)),
            }
        }
        let mut slow = Vec::new();
        let mut covered = vec![false; finders.len()];
        for (t, region) in failed {
            if t.ids.iter().any(|&i| used[i] || covered[i]) {
                continue;
            }
            for i in t.ids {
                covered[i] = true;
            }
            slow.push(Region {
                triple: None,
                ..region
            });
        }
        // A crop holding many finders is no code (a wall of look-alikes): `rqrr`'s locator
        // would try their every grouping, so it gets none of those.
        let crowded = |r: &Region| {
            finders
                .iter()
                .filter(|f| {
                    f.x >= r.rect[0] && f.x <= r.rect[2] && f.y >= r.rect[1] && f.y <= r.rect[3]
                })
                .take(MAX_FINDERS_IN_CROP + 1)
                .count()
                > MAX_FINDERS_IN_CROP
        };
        // A finder left over is looked at again if it is well supported (seen on three rows or
        // more, or small): data modules and card art make weak look-alikes. One large enough
        // for its diagonals to be seen must also cross 1:1:3:1:1 along one of them: card art
        // rarely does. Then (`Lone::FinerLook`; tracking takes the slow read at once) its
        // surroundings are scanned again, every row: a code there has
        // partner finders (the coarse scan missed or could not group them). A triple of those
        // is read by its grid; a slow read (as costly as a whole frame's grid reads) is spent
        // only where such a triple was seen and did not read — a finder without two partners
        // at the corners of a square is card art or noise.
        let mut fine_scans = 0;
        for (i, f) in finders.iter().enumerate() {
            if used[i]
                || covered[i]
                || !(f.votes >= 3 || f.unit * 3.0 < 2.0 * self.config.row_step as f32)
                || !(f.unit < LONE_DIAGONAL_FROM_PX
                    || self.diagonal_check(g, stats, f, 1)
                    || self.diagonal_check(g, stats, f, -1))
            {
                continue;
            }
            let region = locate::lone_region(f);
            if explained(&region, known) || explained(&region, &found) || crowded(&region) {
                continue;
            }
            if lone == Lone::FinerLook && (fine_scans >= MAX_FINE_SCANS || deadline.passed()) {
                break;
            }
            if lone == Lone::SlowRead {
                slow.push(region);
                continue;
            }
            fine_scans += 1;
            match self.partners(g, stats, f, &region) {
                Partners::None => {}
                Partners::Read(d) => found.push(d),
                Partners::Seen => slow.push(region),
            }
        }
        slow.retain(|r| !explained(r, known) && !explained(r, &found));
        slow.retain(|r| !crowded(r));
        (found, slow)
    }

    /// The finer look around a finder left over: its region scanned again, every row (see
    /// [`read_finders`](Self::read_finders)); the triples among the finders found there read by
    /// their grids.
    fn partners(&self, g: &Gray, stats: &BlockStats, f: &Finder, region: &Region) -> Partners {
        let near: Vec<Finder> = self
            .finders_in(g, stats, region.rect)
            .into_iter()
            .filter(|o| o.light == f.light && (0.6..1.67).contains(&(o.unit / f.unit)))
            .take(MAX_FINDERS_IN_CROP)
            .collect();
        let apart = |o: &Finder| {
            ((o.x - f.x).powi(2) + (o.y - f.y).powi(2)).sqrt() >= 10.0 * f.unit.min(o.unit)
        };
        if !near.iter().any(apart) {
            return Partners::None;
        }
        // `rqrr`'s locator too needs three finders at the corners of a square: with no such
        // triple seen here, a slow read would read nothing.
        let triples = locate::triples(&near);
        if triples.is_empty() {
            return Partners::None;
        }
        for t in triples.iter().take(MAX_FINE_TRIPLES) {
            let region = locate::triple_region(&near, t);
            let Some(corners) = region.triple else {
                continue;
            };
            let units = t.ids.map(|i| near[i].unit);
            if let Some(d) = self.read_triple(g, Some(stats), corners, units, region.light) {
                return Partners::Read(d);
            }
        }
        Partners::Seen
    }

    /// Decodes candidate regions: a finder triple by sampling its module grid directly (tens
    /// of microseconds), the rest — and triples that do not read so — with `rqrr` on a crop
    /// (milliseconds), at most `budget` crops and none after the deadline. Gives the
    /// detections, and the crops left undone and those that read nothing.
    fn decode_regions(
        &self,
        gray: &Gray,
        stats: &BlockStats,
        regions: Vec<Region>,
        mut budget: Option<usize>,
        skip_slow: &dyn Fn(&Region) -> bool,
        deadline: &Deadline,
    ) -> Decoded {
        let mut out = Vec::new();
        let mut slow_regions = Vec::new();
        for region in regions {
            if let Some(triple) = region.triple
                && let Some(d) =
                    self.read_triple(gray, Some(stats), triple, [region.unit; 3], region.light)
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
            if deadline.passed() {
                left.push(region);
                continue;
            }
            match &mut budget {
                Some(0) => {
                    left.push(region);
                    continue;
                }
                Some(b) => *b -= 1,
                None => {}
            }
            if explained(&region, &out) {
                continue;
            }
            slow += 1;
            let found = self.decode_region(gray, region, deadline);
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
}

/// What becomes of a well-supported finder left over ([`Detector::read_finders`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lone {
    /// The finer look: a grid read of a triple around it, a slow read only where a triple was
    /// seen and did not read (first sight, [`Detector::detect`]: no slow read on card art).
    FinerLook,
    /// A slow read of its region, as before the finer look (tracking: [`Scanner::scan`] runs
    /// at most [`ScanConfig::max_slow_decodes`] a frame and does not retry a crop that read
    /// nothing, so the cost stays bounded; with the finer look, `detect_frames`' scanner mode
    /// read 98.1 % of the codes in view instead of 98.5 %, as codes came out from under the
    /// hand; also [`Detector::detect_hinted`]).
    SlowRead,
}

/// What the finer look around a finder left over saw ([`Detector::read_finders`]).
enum Partners {
    /// No triple of finders of its polarity and size: no code there.
    None,
    /// Triples, but none read by its grid: worth a slow read.
    Seen,
    /// A code read by its grid.
    Read(Detection),
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
        light: false,
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
                if regions[i].light == regions[j].light
                    && area(&inter) > 0.5 * area(&a).min(area(&b))
                {
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
                        light: regions[i].light,
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
    /// A frame's work stops starting new candidates after this long: the finder scan, grid
    /// reads and slow reads check it, and what is left waits for the next frames. Every single
    /// step is bounded (capped crops, capped candidate counts), so no frame takes much longer.
    pub frame_budget: Duration,
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
            frame_budget: Duration::from_millis(60),
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
    /// Whether the frame budget ran out (work was left for the next frames).
    pub over_budget: bool,
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
        let deadline = Deadline::after(self.config.frame_budget);
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
        let finders = self
            .detector
            .find_finders(&g, &blocks, Some(&active), &deadline);
        stats.finders = finders.len();
        let (fast, slow) =
            self.detector
                .read_finders(&g, &blocks, &finders, &kept, Lone::SlowRead, &deadline);
        kept.extend(fast);
        regions.extend(slow);
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
            &blocks,
            regions,
            Some(self.config.max_slow_decodes),
            &skip_slow,
            &deadline,
        );
        stats.decode_time = clock.elapsed();
        stats.slow_decodes = decoded.slow;
        stats.searched =
            decoded.found.len() + kept.iter().filter(|d| d.read == ReadKind::Searched).count();
        stats.over_budget = deadline.passed();
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
