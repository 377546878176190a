//! Whether a card that was not read in a frame is still there, covered, or gone.
//!
//! The [`Scanner`](super::detect::Scanner) reports what it read; a code it did not read this
//! frame may still lie there — under a passing shadow, smeared by a bump of the table, or under
//! a hand. [`Presence`] looks at the card's place in the frame itself before the tracker may
//! call the card gone:
//!
//! 1. **Read in place.** The code is read again where the mat's pose puts it now (its corners
//!    remembered in mat mm, so a camera that moved is followed), corrected by how far the other
//!    codes of this frame moved, and a module around that ([`Detector::reread`]).
//! 2. **Still there.** Its module pattern is sampled there and compared with the pattern it had
//!    when last read, each module against the mean of its neighbourhood (so a shadow's gradient
//!    does not matter): most modules as before means the code lies there, unread
//!    ([`Look::There`]). So does a place that still looks like the tag did, cell for cell
//!    (a blurred frame).
//! 3. **Cleared or covered.** [`Background`] keeps a coarse picture of the table without its
//!    cards (8 × 8-pixel cells; a cell still for [`BACKGROUND_LEARN_S`] is learned, except where
//!    a card lies — around every tracked tag, [`card_area`] — so a card lying still never
//!    becomes background). When a card is read at a new place, the background under its tag —
//!    the mat before the card came — is remembered. A place that looks like that again (allowing for the light) is cleared: the
//!    card was taken away ([`Look::Cleared`]); a place that looks like neither the tag nor what
//!    was under it has something over it: a hand ([`Look::Covered`]). Where nothing is known of
//!    what lay under the card (it was there when the camera started), the answer is
//!    [`Look::Unknown`] and the tracker falls back on its timeout.
//!
//! Frames where most of the picture changed at once (a bump, the light switched) are
//! [`Background::shaken`]: no card is judged in them.

use super::detect::{Detection, Detector, ReadKind};
use super::geometry::{Homography, Point};
use super::mat::MatPose;
use image::GrayImage;

/// Cell size of the coarse picture, in pixels.
const CELL: usize = 8;
/// A cell whose grey level moves more than this since the last frame has changed.
const CHANGE_LEVEL: f32 = 8.0;
/// A cell that stays within this of where its still run began is still.
const STILL_LEVEL: f32 = 6.0;
/// A cell still this long (seconds) is learned as background.
pub const BACKGROUND_LEARN_S: f64 = 2.0;
/// A frame in which more than this fraction of the cells changed is shaken.
const SHAKEN_FRACTION: f32 = 0.45;
/// Samples across a tag for its look and what lies under it.
const GRID: usize = 6;
/// Agreement of module patterns above which a code is taken to lie where it was.
const PATTERN_MATCH: f32 = 0.8;
/// Fraction of sample points that must agree for "looks like the tag" or "looks like under".
const POINTS_MATCH: f32 = 0.8;

/// The frame as coarse cells, and the table as it looks when nothing moves.
#[derive(Clone, Debug, Default)]
pub struct Background {
    cols: usize,
    rows: usize,
    dims: (u32, u32),
    now: Vec<f32>,
    prev: Vec<f32>,
    bg: Vec<f32>,
    /// Whether a cell's background is known (seen without a card on it).
    known: Vec<bool>,
    anchor: Vec<f32>,
    still_since: Vec<f64>,
    changed: f32,
    gain: f32,
}

/// The cells (indices) whose centres lie inside one of `areas` (pixel quadrilaterals).
fn cells_in(cols: usize, rows: usize, areas: &[[Point; 4]]) -> Vec<usize> {
    let mut out = Vec::new();
    for q in areas {
        let xs = q.map(|p| p.0);
        let ys = q.map(|p| p.1);
        let lo = |v: [f64; 4]| v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = |v: [f64; 4]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let cx0 = (lo(xs) / CELL as f64).floor().max(0.0) as usize;
        let cy0 = (lo(ys) / CELL as f64).floor().max(0.0) as usize;
        let cx1 = ((hi(xs) / CELL as f64).ceil().max(0.0) as usize).min(cols);
        let cy1 = ((hi(ys) / CELL as f64).ceil().max(0.0) as usize).min(rows);
        for cy in cy0..cy1 {
            for cx in cx0..cx1 {
                let p = (
                    (cx as f64 + 0.5) * CELL as f64,
                    (cy as f64 + 0.5) * CELL as f64,
                );
                if inside(q, p) {
                    out.push(cy * cols + cx);
                }
            }
        }
    }
    out
}

/// Whether `p` lies inside the convex quadrilateral `q`.
fn inside(q: &[Point; 4], p: Point) -> bool {
    let mut sign = 0.0f64;
    for i in 0..4 {
        let (a, b) = (q[i], q[(i + 1) % 4]);
        let cross = (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
        if cross != 0.0 {
            if sign != 0.0 && cross.signum() != sign {
                return false;
            }
            sign = cross.signum();
        }
    }
    true
}

/// Where a card may lie around its tag, as a pixel quadrilateral from the tag's corners (top
/// left, top right, bottom right, bottom left): the tag's sides 1.5 wide to the left and right,
/// one above and 3.6 below — a card of up to 88 mm with a sticker near its top edge, for tags
/// of 18 mm and up.
pub fn card_area(tag: &[(f32, f32); 4]) -> [Point; 4] {
    let c = tag.map(|p| (f64::from(p.0), f64::from(p.1)));
    let at = |u: f64, v: f64| {
        let top = lerp(c[0], c[1], u);
        let bottom = lerp(c[3], c[2], u);
        lerp(top, bottom, v)
    };
    [at(-1.5, -1.0), at(2.5, -1.0), at(2.5, 4.6), at(-1.5, 4.6)]
}

impl Background {
    /// Takes the next frame, at `time_s`. Nothing is learned inside `cards` (pixel
    /// quadrilaterals where cards lie); on the first frame, those cells stay unknown.
    pub fn update(&mut self, image: &GrayImage, time_s: f64, cards: &[[Point; 4]]) {
        let (w, h) = (image.width() as usize, image.height() as usize);
        let px = image.as_raw();
        let cols = w.div_ceil(CELL);
        let rows = h.div_ceil(CELL);
        std::mem::swap(&mut self.now, &mut self.prev);
        self.now.clear();
        self.now.reserve(cols * rows);
        for cy in 0..rows {
            let ys = [(cy * CELL + 2).min(h - 1), (cy * CELL + 6).min(h - 1)];
            for cx in 0..cols {
                let xs = [(cx * CELL + 2).min(w - 1), (cx * CELL + 6).min(w - 1)];
                let mut sum = 0u32;
                for y in ys {
                    let row = y * w;
                    for x in xs {
                        sum += u32::from(px[row + x]);
                    }
                }
                self.now.push(sum as f32 / 4.0);
            }
        }
        if self.dims != (image.width(), image.height()) || self.prev.len() != self.now.len() {
            self.cols = cols;
            self.rows = rows;
            self.dims = (image.width(), image.height());
            self.prev = self.now.clone();
            self.bg = self.now.clone();
            self.known = vec![true; self.now.len()];
            for i in cells_in(cols, rows, cards) {
                self.known[i] = false;
            }
            self.anchor = self.now.clone();
            self.still_since = vec![time_s; self.now.len()];
            self.changed = 0.0;
            self.gain = 1.0;
            return;
        }
        let mut under_card = vec![false; self.now.len()];
        for i in cells_in(cols, rows, cards) {
            under_card[i] = true;
        }
        let mut changed = 0usize;
        for (i, &card) in under_card.iter().enumerate() {
            let v = self.now[i];
            if (v - self.prev[i]).abs() > CHANGE_LEVEL {
                changed += 1;
            }
            if (v - self.anchor[i]).abs() > STILL_LEVEL || card {
                self.anchor[i] = v;
                self.still_since[i] = time_s;
            } else if time_s - self.still_since[i] >= BACKGROUND_LEARN_S {
                self.bg[i] = v;
                self.known[i] = true;
            }
        }
        self.changed = changed as f32 / self.now.len().max(1) as f32;
        // The light over the whole table against the background (an exposure change): the
        // median ratio over a spread of cells.
        let mut ratios: Vec<f32> = (0..self.now.len())
            .step_by(7)
            .filter(|&i| self.known[i] && !under_card[i] && self.bg[i] > 20.0)
            .map(|i| self.now[i] / self.bg[i])
            .collect();
        self.gain = if ratios.is_empty() {
            1.0
        } else {
            let mid = ratios.len() / 2;
            *ratios.select_nth_unstable_by(mid, f32::total_cmp).1
        };
    }

    /// Whether most of this frame changed at once (the camera shaken, the light switched).
    pub fn shaken(&self) -> bool {
        self.changed > SHAKEN_FRACTION
    }

    /// The fraction of the frame's cells that changed since the last frame.
    pub fn changed_fraction(&self) -> f32 {
        self.changed
    }

    fn sample(&self, grid: &[f32], p: Point) -> Option<f32> {
        if grid.len() != self.cols * self.rows || self.cols == 0 {
            return None;
        }
        let fx = p.0 / CELL as f64 - 0.5;
        let fy = p.1 / CELL as f64 - 0.5;
        if !(fx > -0.5 && fy > -0.5 && fx < self.cols as f64 - 0.5 && fy < self.rows as f64 - 0.5) {
            return None;
        }
        let (fx, fy) = (
            fx.clamp(0.0, (self.cols - 1) as f64),
            fy.clamp(0.0, (self.rows - 1) as f64),
        );
        let (x0, y0) = (fx as usize, fy as usize);
        let (x1, y1) = ((x0 + 1).min(self.cols - 1), (y0 + 1).min(self.rows - 1));
        let (tx, ty) = ((fx - x0 as f64) as f32, (fy - y0 as f64) as f32);
        let g = |x: usize, y: usize| grid[y * self.cols + x];
        Some(
            (g(x0, y0) * (1.0 - tx) + g(x1, y0) * tx) * (1.0 - ty)
                + (g(x0, y1) * (1.0 - tx) + g(x1, y1) * tx) * ty,
        )
    }

    fn samples(&self, grid: &[f32], points: &[Point]) -> Option<Vec<f32>> {
        points.iter().map(|p| self.sample(grid, *p)).collect()
    }

    /// Whether the background is known at every one of `points` (pixels).
    fn known_at(&self, points: &[Point]) -> bool {
        points.iter().all(|p| {
            let cx = (p.0 / CELL as f64).floor();
            let cy = (p.1 / CELL as f64).floor();
            cx >= 0.0
                && cy >= 0.0
                && (cx as usize) < self.cols
                && (cy as usize) < self.rows
                && self.known[cy as usize * self.cols + cx as usize]
        })
    }

    /// Takes what the frame shows at these pixels as the background (a place seen cleared).
    fn adopt(&mut self, points: &[Point]) {
        for p in points {
            let cx = (p.0 / CELL as f64).floor();
            let cy = (p.1 / CELL as f64).floor();
            for dy in -1i64..=1 {
                for dx in -1i64..=1 {
                    let (x, y) = (cx as i64 + dx, cy as i64 + dy);
                    if x >= 0 && y >= 0 && (x as usize) < self.cols && (y as usize) < self.rows {
                        let i = y as usize * self.cols + x as usize;
                        if let Some(v) = self.now.get(i).copied() {
                            self.bg[i] = v;
                            self.known[i] = true;
                        }
                    }
                }
            }
        }
    }
}

/// What a card's tag looked like when last read.
#[derive(Clone, Debug, PartialEq)]
pub struct TagPrint {
    /// Its text.
    pub text: String,
    /// Its corners in mat mm (top left, top right, bottom right, bottom left of the code).
    pub corners_mm: [Point; 4],
    /// Its corners in the frame where it was last read.
    pub corners_px: [(f32, f32); 4],
    version: u8,
    ecc: super::detect::Ecc,
    /// The module pattern (dark modules), row by row.
    bits: Vec<bool>,
    /// The coarse picture at the sample points when it was read.
    look: Vec<f32>,
    /// What lay under the card before it came, when known.
    under: Option<Under>,
}

/// The table under a card before it came: grey levels at points of the mat.
#[derive(Clone, Debug, PartialEq)]
pub struct Under {
    /// The points, in mat mm.
    points_mm: Vec<Point>,
    /// The background's grey level at each.
    values: Vec<f32>,
}

impl Under {
    /// The centre of the points, in mat mm.
    pub fn center_mm(&self) -> Point {
        let n = self.points_mm.len().max(1) as f64;
        let (x, y) = self
            .points_mm
            .iter()
            .fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
        (x / n, y / n)
    }
}

impl TagPrint {
    /// Whether what lay under the card before it came is known.
    pub fn knows_under(&self) -> bool {
        self.under.is_some()
    }

    /// What lay under the card before it came, when known.
    pub fn under(&self) -> Option<&Under> {
        self.under.as_ref()
    }

    /// The code's centre in mat mm.
    pub fn center_mm(&self) -> Point {
        let c = &self.corners_mm;
        (
            (c[0].0 + c[1].0 + c[2].0 + c[3].0) / 4.0,
            (c[0].1 + c[1].1 + c[2].1 + c[3].1) / 4.0,
        )
    }

    /// Where the pose puts the code's corners in the frame now.
    pub fn corners_px_now(&self, pose: &MatPose) -> Option<[(f32, f32); 4]> {
        predict(pose, self, (0.0, 0.0))
    }

    /// The code's side in mat mm.
    pub fn side_mm(&self) -> f64 {
        let c = &self.corners_mm;
        let d = |a: Point, b: Point| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
        (d(c[0], c[1]) + d(c[1], c[2]) + d(c[2], c[3]) + d(c[3], c[0])) / 4.0
    }
}

/// What the place of a card not read this frame shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Look {
    /// Its code was read there after all.
    Read(Detection),
    /// Its code lies there, unread (a shadow, blur).
    There,
    /// The place looks as it did before the card came: taken away.
    Cleared,
    /// Something that is neither the card nor what lay under it is over it: a hand.
    Covered,
    /// Nothing can be said (what lay under it is unknown, or it is out of the frame).
    Unknown,
}

/// Looks at the places of cards in frames (see the [module docs](self)).
#[derive(Clone, Debug, Default)]
pub struct Presence {
    background: Background,
}

/// Where the `GRID` × `GRID` sample points of a code lie, from its corners (any space).
fn grid_points(corners: &[Point; 4]) -> Vec<Point> {
    let mut out = Vec::with_capacity(GRID * GRID);
    for j in 0..GRID {
        let v = (j as f64 + 0.5) / GRID as f64;
        for i in 0..GRID {
            let u = (i as f64 + 0.5) / GRID as f64;
            let top = lerp(corners[0], corners[1], u);
            let bottom = lerp(corners[3], corners[2], u);
            out.push(lerp(top, bottom, v));
        }
    }
    out
}

fn lerp(a: Point, b: Point, t: f64) -> Point {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}

fn bilinear(image: &GrayImage, p: Point) -> Option<f32> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let (x, y) = (p.0 - 0.5, p.1 - 0.5);
    if !(x >= 0.0 && y >= 0.0 && x < (w - 1) as f64 && y < (h - 1) as f64) {
        return None;
    }
    let (x0, y0) = (x as usize, y as usize);
    let (tx, ty) = ((x - x0 as f64) as f32, (y - y0 as f64) as f32);
    let px = image.as_raw();
    let g = |x: usize, y: usize| f32::from(px[y * w + x]);
    Some(
        (g(x0, y0) * (1.0 - tx) + g(x0 + 1, y0) * tx) * (1.0 - ty)
            + (g(x0, y0 + 1) * (1.0 - tx) + g(x0 + 1, y0 + 1) * tx) * ty,
    )
}

/// The module pattern of an `n`-module code with these corners (pixels): each module's centre
/// against the mean of the 7 × 7 modules around it. `None` if the code is not wholly in the
/// frame or shows no contrast (a hand, bare mat).
fn module_bits(image: &GrayImage, corners: &[(f32, f32); 4], n: usize) -> Option<Vec<bool>> {
    let nf = n as f64;
    let to = corners.map(|c| (f64::from(c.0), f64::from(c.1)));
    let h = Homography::from_points([(0.0, 0.0), (nf, 0.0), (nf, nf), (0.0, nf)], to)?;
    let mut samples = Vec::with_capacity(n * n);
    for y in 0..n {
        for x in 0..n {
            let p = h.map((x as f64 + 0.5, y as f64 + 0.5))?;
            samples.push(bilinear(image, p)?);
        }
    }
    let mut order = samples.clone();
    let lo = *order.select_nth_unstable_by(n * n / 10, f32::total_cmp).1;
    let hi = *order
        .select_nth_unstable_by(n * n * 9 / 10, f32::total_cmp)
        .1;
    if hi - lo < 24.0 {
        return None;
    }
    // Local means through an integral image of the samples.
    let mut integral = vec![0f32; (n + 1) * (n + 1)];
    for y in 0..n {
        let mut row = 0f32;
        for x in 0..n {
            row += samples[y * n + x];
            integral[(y + 1) * (n + 1) + x + 1] = integral[y * (n + 1) + x + 1] + row;
        }
    }
    const R: usize = 3;
    let mut bits = Vec::with_capacity(n * n);
    for y in 0..n {
        let (y0, y1) = (y.saturating_sub(R), (y + R + 1).min(n));
        for x in 0..n {
            let (x0, x1) = (x.saturating_sub(R), (x + R + 1).min(n));
            let s = integral[y1 * (n + 1) + x1] + integral[y0 * (n + 1) + x0]
                - integral[y0 * (n + 1) + x1]
                - integral[y1 * (n + 1) + x0];
            let mean = s / ((x1 - x0) * (y1 - y0)) as f32;
            bits.push(samples[y * n + x] < mean);
        }
    }
    Some(bits)
}

fn agreement(a: &[bool], b: &[bool]) -> f32 {
    if a.len() != b.len() || a.is_empty() {
        return 0.0;
    }
    a.iter().zip(b).filter(|(x, y)| x == y).count() as f32 / a.len() as f32
}

/// Whether `now` matches `then` at most points (grey levels, `then` scaled by `gain`).
fn points_match(now: &[f32], then: &[f32], gain: f32) -> bool {
    if now.len() != then.len() || now.is_empty() {
        return false;
    }
    let ok = now
        .iter()
        .zip(then)
        .filter(|(n, t)| {
            let t = **t * gain;
            (**n - t).abs() <= 10.0 + 0.12 * t
        })
        .count();
    ok as f32 >= POINTS_MATCH * now.len() as f32
}

impl Presence {
    /// Takes the next frame (before any card of it is looked at); `cards` are where cards lie
    /// ([`card_area`] of each, in pixels), kept out of the background.
    pub fn observe(&mut self, image: &GrayImage, time_s: f64, cards: &[[Point; 4]]) {
        self.background.update(image, time_s, cards);
    }

    /// The coarse picture of the table.
    pub fn background(&self) -> &Background {
        &self.background
    }

    /// What a card read this frame looks like, for later frames. `previous` is its print from
    /// before (what lay under it is kept while it moved less than 5 mm).
    pub fn print(
        &self,
        image: &GrayImage,
        pose: &MatPose,
        d: &Detection,
        previous: Option<&TagPrint>,
    ) -> Option<TagPrint> {
        let corners_mm: [Point; 4] = {
            let m: Vec<Point> = d
                .corners
                .iter()
                .map(|c| pose.to_mat((f64::from(c.0), f64::from(c.1))))
                .collect::<Option<Vec<_>>>()?;
            [m[0], m[1], m[2], m[3]]
        };
        let n = d.modules();
        let bits = module_bits(image, &d.corners, n)?;
        let px_points = grid_points(&d.corners.map(|c| (f64::from(c.0), f64::from(c.1))));
        let look = self.background.samples(&self.background.now, &px_points)?;
        let center = |c: &[Point; 4]| {
            (
                (c[0].0 + c[1].0 + c[2].0 + c[3].0) / 4.0,
                (c[0].1 + c[1].1 + c[2].1 + c[3].1) / 4.0,
            )
        };
        let moved = previous.is_none_or(|p| {
            let (a, b) = (center(&p.corners_mm), center(&corners_mm));
            ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt() > 5.0
        });
        let under = if moved {
            // Unknown where no frame showed the table there without a card (the card lay
            // there when the camera started).
            let values = self
                .background
                .known_at(&px_points)
                .then(|| self.background.samples(&self.background.bg, &px_points))
                .flatten()
                // A background that looks like the tag says nothing about what is under it.
                .filter(|values| !points_match(&look, values, 1.0));
            values.map(|values| Under {
                points_mm: grid_points(&corners_mm),
                values,
            })
        } else {
            previous.and_then(|p| p.under.clone())
        };
        Some(TagPrint {
            text: d.text.clone(),
            corners_mm,
            corners_px: d.corners,
            version: d.version,
            ecc: d.ecc,
            bits,
            look,
            under,
        })
    }

    /// What the place of the card `print` shows in this frame. `drift` is how far the other
    /// codes of this frame moved from where their prints put them (pixels): the camera moved.
    pub fn look(
        &mut self,
        image: &GrayImage,
        pose: &MatPose,
        print: &TagPrint,
        drift: (f32, f32),
        detector: &Detector,
    ) -> Look {
        let Some(predicted) = predict(pose, print, drift) else {
            return Look::Unknown;
        };
        let n = 17 + 4 * usize::from(print.version);
        let side = {
            let d =
                |a: (f32, f32), b: (f32, f32)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
            (d(predicted[0], predicted[1]) + d(predicted[1], predicted[2])) / 2.0
        };
        let module = side / n as f32;
        // Read in place, then a module around it.
        let mut best: Option<(f32, [(f32, f32); 4])> = None;
        for (k, (dx, dy)) in OFFSETS.iter().enumerate() {
            let corners = predicted.map(|c| (c.0 + dx * module, c.1 + dy * module));
            let hint = Detection {
                text: print.text.clone(),
                corners,
                version: print.version,
                ecc: print.ecc,
                read: ReadKind::Reread,
            };
            if let Some(d) = detector.reread(image, &hint) {
                return Look::Read(d);
            }
            let score =
                module_bits(image, &corners, n).map_or(0.0, |bits| agreement(&bits, &print.bits));
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, corners));
            }
            // The place itself almost matches: no need to look around.
            if k == 0 && score >= PATTERN_MATCH {
                return Look::There;
            }
        }
        if best.is_some_and(|(s, _)| s >= PATTERN_MATCH) {
            return Look::There;
        }
        let points = grid_points(&predicted.map(|c| (f64::from(c.0), f64::from(c.1))));
        let Some(now) = self.background.samples(&self.background.now, &points) else {
            return Look::Unknown;
        };
        let gain = self.background.gain;
        if points_match(&now, &print.look, gain) {
            return Look::There;
        }
        let Some(under) = &print.under else {
            return Look::Unknown;
        };
        let under_px: Option<Vec<Point>> = under
            .points_mm
            .iter()
            .map(|p| {
                pose.mat_to_px
                    .map(*p)
                    .map(|q| (q.0 + f64::from(drift.0), q.1 + f64::from(drift.1)))
            })
            .collect();
        let Some(now_under) = under_px
            .as_ref()
            .and_then(|pts| self.background.samples(&self.background.now, pts))
        else {
            return Look::Unknown;
        };
        if points_match(&now_under, &under.values, gain) {
            if let Some(pts) = &under_px {
                self.background.adopt(pts);
            }
            Look::Cleared
        } else {
            Look::Covered
        }
    }
}

/// Offsets tried around a code's predicted place, in modules: the place, then its eight
/// neighbours one module away.
const OFFSETS: [(f32, f32); 9] = [
    (0.0, 0.0),
    (-1.0, 0.0),
    (1.0, 0.0),
    (0.0, -1.0),
    (0.0, 1.0),
    (-1.0, -1.0),
    (1.0, -1.0),
    (-1.0, 1.0),
    (1.0, 1.0),
];

/// Where `print`'s code should be in this frame: its mat corners through the pose, moved by
/// `drift`.
fn predict(pose: &MatPose, print: &TagPrint, drift: (f32, f32)) -> Option<[(f32, f32); 4]> {
    let mut out = [(0.0f32, 0.0f32); 4];
    for (o, c) in out.iter_mut().zip(&print.corners_mm) {
        let p = pose.mat_to_px.map(*c)?;
        *o = (p.0 as f32 + drift.0, p.1 as f32 + drift.1);
    }
    Some(out)
}

/// How far a code read now lies from where its print's mat corners and the pose put it
/// (pixels, centre to centre).
pub fn offset_from_print(pose: &MatPose, print: &TagPrint, d: &Detection) -> Option<(f32, f32)> {
    let p = predict(pose, print, (0.0, 0.0))?;
    let pc = (
        (p[0].0 + p[1].0 + p[2].0 + p[3].0) / 4.0,
        (p[0].1 + p[1].1 + p[2].1 + p[3].1) / 4.0,
    );
    let c = d.center();
    Some((c.0 - pc.0, c.1 - pc.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::mat::MatLayout;
    use crate::vision::render::{Camera, Card, Hand, Shadow, Symbol, mat_scene, render};
    use cards::core::GameId;

    fn pose_of(camera: &Camera, layout: &MatLayout) -> MatPose {
        let px = layout.markers.map(|m| camera.mat_to_px.map(m).unwrap());
        MatPose::from_markers(layout, px).unwrap()
    }

    fn detection(truth: &crate::vision::render::Truth) -> Detection {
        Detection {
            text: truth.text.clone(),
            corners: truth.corners,
            version: 1,
            ecc: super::super::detect::Ecc::Q,
            read: ReadKind::Searched,
        }
    }

    #[test]
    fn a_shadowed_card_is_there_a_hand_covers_it_and_bare_mat_is_cleared() {
        let layout = MatLayout::builtin(GameId::Jaken).unwrap();
        let camera = Camera::overhead(960, 540, layout.size_mm, 0.02, 0.05, 1.0);
        let pose = pose_of(&camera, &layout);
        let bare = mat_scene(&layout).unwrap();
        let mut with = bare.clone();
        let text = "TS1:J:JD07:2:P";
        let mut card = Card::tagged(Symbol::tag(text).unwrap(), (350.0, 290.0), 1, 2.0);
        card.tag_mm = 48.0;
        with.cards.push(card);
        let detector = Detector::default();
        let mut p = Presence::default();
        // The bare mat for three seconds: learned.
        for i in 0..4 {
            p.observe(&render(&bare, &camera, i).image, f64::from(i as u32), &[]);
        }
        let frame = render(&with, &camera, 10);
        p.observe(&frame.image, 4.0, &[]);
        let truth = frame.truth.iter().find(|t| t.text == text).unwrap();
        let mut d = detection(truth);
        d.version = Symbol::tag(text).unwrap().modules().saturating_sub(17) as u8 / 4;
        let print = p.print(&frame.image, &pose, &d, None).unwrap();
        let area = [card_area(&d.corners)];
        assert!(print.knows_under());
        // A deep shadow over it: there (read, or its pattern).
        let mut shadowed = with.clone();
        shadowed.shadows.push(Shadow {
            at_mm: (330.0, 270.0),
            radii_mm: (60.0, 45.0),
            depth: 0.55,
            softness: 0.7,
        });
        let f = render(&shadowed, &camera, 11);
        p.observe(&f.image, 4.1, &area);
        let look = p.look(&f.image, &pose, &print, (0.0, 0.0), &detector);
        assert!(matches!(look, Look::Read(_) | Look::There), "{look:?}");
        // A hand resting on it: covered.
        let mut hand = with.clone();
        hand.hands.push(Hand {
            at_mm: (350.0, 300.0),
            angle_deg: 0.0,
            scale: 1.0,
        });
        let f = render(&hand, &camera, 12);
        p.observe(&f.image, 4.2, &area);
        assert_eq!(
            p.look(&f.image, &pose, &print, (0.0, 0.0), &detector),
            Look::Covered
        );
        // Taken away: the bare mat again.
        let f = render(&bare, &camera, 13);
        p.observe(&f.image, 4.3, &area);
        assert_eq!(
            p.look(&f.image, &pose, &print, (0.0, 0.0), &detector),
            Look::Cleared
        );
    }
}
