//! Locating codes: block statistics (local thresholds, contrast, the change detector's means),
//! the finder-pattern scan over rows in both polarities, clustering of row hits, and grouping
//! finders into candidate codes.

use super::{Deadline, Detector, Gray, Region};

/// Block size for thresholds and change detection: 1 << 4 = 16 pixels.
pub(crate) const BLOCK_SHIFT: usize = 4;

/// At most this many finders are grouped a frame (the best supported first): a frame full of
/// finder look-alikes costs a bounded amount.
const MAX_FINDERS: usize = 512;
/// Each finder is tried with pairs of its this many nearest fellows.
const NEAREST: usize = 24;
/// At most this many finder triples are tried a frame.
const MAX_TRIPLES: usize = 600;

/// Per 16 × 16 block: mean, local threshold, and whether there is contrast enough.
pub(crate) struct BlockStats {
    pub(crate) bw: usize,
    pub(crate) bh: usize,
    pub(crate) mean: Vec<u8>,
    pub(super) thr: Vec<u8>,
    pub(super) ok: Vec<bool>,
}

impl BlockStats {
    /// The statistics of a frame; linear in its pixels (every second row is read).
    pub(crate) fn of(g: &Gray, min_contrast: u8) -> BlockStats {
        let bs = 1 << BLOCK_SHIFT;
        let (bw, bh) = (g.w.div_ceil(bs), g.h.div_ceil(bs));
        let mut sum = vec![0u32; bw * bh];
        let mut count = vec![0u32; bw * bh];
        let mut lo = vec![255u8; bw * bh];
        let mut hi = vec![0u8; bw * bh];
        // Every second row is enough for block statistics. Each block row's rows are first
        // gathered per pixel column (sum, minimum, maximum: element-wise over whole rows, which
        // the compiler vectorises), then each block's sixteen columns are reduced.
        let mut col_sum = vec![0u16; g.w];
        let mut col_lo = vec![255u8; g.w];
        let mut col_hi = vec![0u8; g.w];
        for by in 0..bh {
            col_sum.fill(0);
            col_lo.fill(255);
            col_hi.fill(0);
            let rows = (by * bs..((by + 1) * bs).min(g.h)).step_by(2);
            let n_rows = rows.len() as u32;
            for y in rows {
                let row = &g.px[y * g.w..(y + 1) * g.w];
                // Three plain loops over equal lengths: each one vectorises.
                for (s, &v) in col_sum.iter_mut().zip(row) {
                    *s += u16::from(v);
                }
                for (l, &v) in col_lo.iter_mut().zip(row) {
                    *l = (*l).min(v);
                }
                for (h, &v) in col_hi.iter_mut().zip(row) {
                    *h = (*h).max(v);
                }
            }
            let blocks = col_sum
                .chunks(bs)
                .zip(col_lo.chunks(bs))
                .zip(col_hi.chunks(bs));
            for (bx, ((cs, cl), ch)) in blocks.enumerate() {
                let b = by * bw + bx;
                sum[b] = cs.iter().map(|&v| u32::from(v)).sum();
                count[b] = cs.len() as u32 * n_rows;
                lo[b] = cl.iter().fold(255, |a, &v| a.min(v));
                hi[b] = ch.iter().fold(0, |a, &v| a.max(v));
            }
        }
        let mean: Vec<u8> = sum
            .iter()
            .zip(&count)
            .map(|(s, c)| (s / (*c).max(1)) as u8)
            .collect();
        // The 5 × 5-block mean and the 3 × 3-block range around each block (clipped at the
        // frame's edges), each as a pass along the rows and then one along the columns.
        let span = |i: usize, r: usize, n: usize| i.saturating_sub(r)..(i + r + 1).min(n);
        let mut row_sum = vec![0u32; bw * bh];
        let mut row_lo = vec![255u8; bw * bh];
        let mut row_hi = vec![0u8; bw * bh];
        for by in 0..bh {
            let at = by * bw;
            for bx in 0..bw {
                row_sum[at + bx] = span(bx, 2, bw).map(|x| u32::from(mean[at + x])).sum();
                row_lo[at + bx] = span(bx, 1, bw).fold(255, |a, x| a.min(lo[at + x]));
                row_hi[at + bx] = span(bx, 1, bw).fold(0, |a, x| a.max(hi[at + x]));
            }
        }
        let mut thr = vec![0u8; bw * bh];
        let mut ok = vec![false; bw * bh];
        for by in 0..bh {
            let rows5 = span(by, 2, bh);
            let rows3 = span(by, 1, bh);
            for bx in 0..bw {
                let s: u32 = rows5.clone().map(|y| row_sum[y * bw + bx]).sum();
                let n = (rows5.len() * span(bx, 2, bw).len()) as u32;
                let l = rows3.clone().fold(255, |a, y| a.min(row_lo[y * bw + bx]));
                let hh = rows3.clone().fold(0, |a, y| a.max(row_hi[y * bw + bx]));
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

    /// Whether pixel (`x`, `y`) is dark against its block's threshold (never in a flat block).
    #[inline]
    pub(super) fn dark(&self, g: &Gray, x: usize, y: usize) -> bool {
        let b = (y >> BLOCK_SHIFT) * self.bw + (x >> BLOCK_SHIFT);
        self.ok[b] && g.px[y * g.w + x] < self.thr[b]
    }

    /// The local threshold at a point of the frame (pixels), for sampling.
    pub(super) fn threshold_at(&self, x: f64, y: f64) -> u8 {
        let bx = ((x.max(0.0) as usize) >> BLOCK_SHIFT).min(self.bw - 1);
        let by = ((y.max(0.0) as usize) >> BLOCK_SHIFT).min(self.bh - 1);
        self.thr[by * self.bw + bx]
    }
}

/// A finder pattern's centre and module size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Finder {
    pub(super) x: f32,
    pub(super) y: f32,
    pub(super) unit: f32,
    pub(super) votes: u32,
    /// Light on dark (an inverted code).
    pub(super) light: bool,
}

impl Detector {
    /// Finder patterns in the rows of `active` blocks (all when `None`), both polarities; at
    /// most [`MAX_FINDERS`], the best supported. Stops early (with what it has) when the
    /// deadline passes.
    pub(super) fn find_finders(
        &self,
        g: &Gray,
        stats: &BlockStats,
        active: Option<&[bool]>,
        deadline: &Deadline,
    ) -> Vec<Finder> {
        let mut hits: Vec<Finder> = Vec::new();
        let step = self.config.row_step.max(1);
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for (k, y) in (0..g.h).step_by(step).enumerate() {
            if k % 16 == 15 && deadline.passed() {
                break;
            }
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
        let mut finders = cluster_finders(hits, step);
        // A finder is square: its diagonal crosses the same 1:1:3:1:1 (data modules rarely
        // do). Finders seen on three rows or more are left as they are (small or blurred real
        // ones may fail the diagonal).
        finders.retain(|f| f.votes >= 3 || self.diagonal_check(g, stats, f, 1));
        if finders.len() > MAX_FINDERS {
            finders.sort_by(|a, b| {
                b.votes
                    .cmp(&a.votes)
                    .then(a.y.total_cmp(&b.y))
                    .then(a.x.total_cmp(&b.x))
            });
            finders.truncate(MAX_FINDERS);
        }
        finders
    }

    /// The finder patterns in one rectangle of the frame (pixels: x0, y0, x1, y1), every row
    /// scanned (the whole-frame scan reads every [`row_step`](super::DetectorConfig::row_step)
    /// th): the finer look around a finder left over, for partners the coarse scan missed.
    /// Linear in the rectangle's pixels.
    pub(super) fn finders_in(&self, g: &Gray, stats: &BlockStats, rect: [f32; 4]) -> Vec<Finder> {
        let clip = |v: f32, n: usize| (v.max(0.0) as usize).min(n);
        let (x0, y0) = (clip(rect[0].floor(), g.w), clip(rect[1].floor(), g.h));
        let (x1, y1) = (clip(rect[2].ceil(), g.w), clip(rect[3].ceil(), g.h));
        let mut hits = Vec::new();
        let mut runs = Vec::new();
        for y in y0..y1 {
            self.scan_row(g, stats, y, x0, x1, &mut runs, &mut hits);
        }
        cluster_finders(hits, 1)
    }

    /// Run-length codes one row span against the block thresholds and checks every five runs
    /// for a finder's 1:1:3:1:1, dark-centred (a normal code) or light-centred (inverted).
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
        if x1 <= x0 {
            return;
        }
        let row = &g.px[y * g.w..(y + 1) * g.w];
        let brow = (y >> BLOCK_SHIFT) * stats.bw;
        runs.clear();
        let first_dark = stats.dark(g, x0, y);
        let mut color = first_dark;
        let mut start = x0;
        let mut x = x0;
        while x < x1 {
            let bx = x >> BLOCK_SHIFT;
            let end = ((bx + 1) << BLOCK_SHIFT).min(x1);
            let (ok, thr) = (stats.ok[brow + bx], stats.thr[brow + bx]);
            // The block's pixels as a bit mask (bit i: pixel x + i dark), then its colour
            // changes as the bits that differ from their left neighbour: a few operations a
            // pixel and no branch per pixel.
            let mut dark = 0u32;
            if ok {
                let px = &row[x..end];
                if px.len() == 16 {
                    dark = below_mask8(load8(px), thr) | below_mask8(load8(&px[8..]), thr) << 8;
                } else {
                    for (i, &v) in px.iter().enumerate() {
                        dark |= u32::from(v < thr) << i;
                    }
                }
            }
            let len = end - x;
            let mut flips = (dark ^ ((dark << 1) | u32::from(color))) & ((1u32 << len) - 1);
            while flips != 0 {
                let i = flips.trailing_zeros() as usize;
                flips &= flips - 1;
                let xx = x + i;
                runs.push((start, xx - start));
                start = xx;
                color = !color;
            }
            x = end;
        }
        runs.push((start, x1 - start));
        let mut i = 0;
        while i + 4 < runs.len() {
            // Runs alternate; run i is dark when its parity matches the first run's.
            let light = (i % 2 == 0) != first_dark;
            let l = [
                runs[i].1,
                runs[i + 1].1,
                runs[i + 2].1,
                runs[i + 3].1,
                runs[i + 4].1,
            ];
            if let Some(unit) = self.finder_ratio(l) {
                let cx = runs[i + 2].0 as f32 + runs[i + 2].1 as f32 / 2.0;
                if let Some((cy, vunit)) = self.cross_check(g, stats, cx as usize, y, unit, light) {
                    hits.push(Finder {
                        x: cx,
                        y: cy,
                        unit: (unit + vunit) / 2.0,
                        votes: 1,
                        light,
                    });
                }
            }
            i += 1;
        }
    }

    /// The module size if these five runs look like a finder's 1:1:3:1:1.
    pub(super) fn finder_ratio(&self, l: [usize; 5]) -> Option<f32> {
        let total: usize = l.iter().sum();
        // The checks below in whole numbers first (times 70): most windows fail here, cheaply.
        let t = total as i64;
        let single = |v: usize| (70 * v as i64 - 10 * t).abs() <= 6 * t + 35;
        if !(single(l[0])
            && single(l[1])
            && single(l[3])
            && single(l[4])
            && (70 * l[2] as i64 - 30 * t).abs() <= 12 * t + 35)
        {
            return None;
        }
        let unit = total as f32 / 7.0;
        if unit < self.config.min_module_px || unit > self.config.max_module_px {
            return None;
        }
        let tol = unit * 0.6 + 0.5;
        let single = |v: usize| (v as f32 - unit).abs() <= tol;
        let center = (l[2] as f32 - 3.0 * unit).abs() <= unit * 1.2 + 0.5;
        (single(l[0]) && single(l[1]) && single(l[3]) && single(l[4]) && center).then_some(unit)
    }

    /// Whether the diagonal through a finder's centre crosses 1:1:3:1:1 too, with a module
    /// size near the finder's: the falling diagonal (`sx` = 1: up-left to down-right) or the
    /// rising one (`sx` = −1).
    pub(super) fn diagonal_check(
        &self,
        g: &Gray,
        stats: &BlockStats,
        f: &Finder,
        sx: isize,
    ) -> bool {
        let (x, y) = (f.x as isize, f.y as isize);
        if x < 0 || y < 0 || x as usize >= g.w || y as usize >= g.h {
            return false;
        }
        let ink = |x: isize, y: isize| {
            x >= 0
                && y >= 0
                && (x as usize) < g.w
                && (y as usize) < g.h
                && stats.dark(g, x as usize, y as usize) != f.light
        };
        if !ink(x, y) {
            return false;
        }
        let limit = (f.unit * 5.0) as usize + 2;
        let mut counts = [0usize; 5];
        // Up-left: centre, gap, ring; then down-right from the centre.
        let mut k = 0isize;
        for (slot, want) in [(2usize, true), (1, false), (0, true)] {
            while ink(x - sx * k, y - k) == want
                && counts[slot] <= limit
                && x - sx * k >= 0
                && y - k >= 0
            {
                counts[slot] += 1;
                k += 1;
            }
            if counts[slot] == 0 || counts[slot] > limit {
                return false;
            }
        }
        let mut k = 1isize;
        for (slot, want) in [(2usize, true), (3, false), (4, true)] {
            let before = counts[slot];
            while ink(x + sx * k, y + k) == want
                && counts[slot] <= limit + before
                && x + sx * k >= 0
                && ((x + sx * k) as usize) < g.w
                && ((y + k) as usize) < g.h
            {
                counts[slot] += 1;
                k += 1;
            }
            if slot != 2 && (counts[slot] == 0 || counts[slot] > limit) {
                return false;
            }
        }
        self.finder_ratio(counts)
            .is_some_and(|u| u > f.unit * 0.5 && u < f.unit * 2.0)
    }

    /// Checks a horizontal finder hit vertically; gives the centre's y and the module size.
    fn cross_check(
        &self,
        g: &Gray,
        stats: &BlockStats,
        x: usize,
        y: usize,
        unit: f32,
        light: bool,
    ) -> Option<(f32, f32)> {
        // "Ink": the finder's own colour (dark, or light for an inverted code).
        let ink = |y: usize| stats.dark(g, x, y) != light;
        if !ink(y) {
            return None;
        }
        let limit = (unit * 5.0) as usize + 2;
        // Up: centre, ring gap, outer ring.
        let mut counts = [0usize; 5];
        let mut yy = y as isize;
        for (slot, want) in [(2usize, true), (1, false), (0, true)] {
            while yy >= 0 && ink(yy as usize) == want && counts[slot] <= limit {
                counts[slot] += 1;
                yy -= 1;
            }
            if counts[slot] == 0 || counts[slot] > limit {
                return None;
            }
        }
        let top_of_center = y + 1 - counts[2];
        let mut yy = y + 1;
        let mut center_down = 0;
        while yy < g.h && ink(yy) && center_down <= limit {
            center_down += 1;
            yy += 1;
        }
        counts[2] += center_down;
        for (slot, want) in [(3usize, false), (4, true)] {
            while yy < g.h && ink(yy) == want && counts[slot] <= limit {
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

/// The first eight bytes of `px` (at least eight) as one word, the first byte lowest.
#[inline]
fn load8(px: &[u8]) -> u64 {
    px.first_chunk::<8>().map_or(0, |c| u64::from_le_bytes(*c))
}

/// Bit `i` set where byte `i` of `v` is below `t`: eight pixels compared at once in one word
/// (no branch, no vector unit needed, the same on the Pi's cores).
#[inline]
fn below_mask8(v: u64, t: u8) -> u32 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let y = 0x0101_0101_0101_0101u64 * u64::from(t);
    // Each byte's low seven bits compared: (v | 128) − (t & 127) cannot borrow from the next
    // byte, and its top bit says v_low ≥ t_low.
    let d = (v | HIGH) - (y & !HIGH);
    // v < t: its top bit is clear where t's is set, or the top bits agree and v_low < t_low.
    let lt = ((!v & y) | (!(v ^ y) & !d)) & HIGH;
    // The eight top bits gathered into one byte (each product lands on its own bit).
    ((lt >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// Merges row hits of the same finder; keeps finders seen on two rows or more.
pub(super) fn cluster_finders(mut hits: Vec<Finder>, step: usize) -> Vec<Finder> {
    hits.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x)));
    let mut clusters: Vec<(Finder, f32, f32, f32)> = Vec::new(); // finder, sum x, sum y, sum unit
    for h in hits {
        let found = clusters.iter_mut().rev().take(64).find(|(c, ..)| {
            c.light == h.light
                && (c.x - h.x).abs() < c.unit * 2.0
                && (c.y - h.y).abs() < c.unit * 2.0
                && {
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

/// A candidate code from three finders: top left, top right, bottom left (in the code's own
/// orientation for a code seen from the front), and how well their geometry fits (0 best).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Triple {
    pub(super) ids: [usize; 3],
    pub(super) quality: f32,
}

/// Every plausible triple of finders (a right angle at the first, two equal legs, alike module
/// sizes, one polarity), best first; each finder is paired only among its nearest fellows and
/// at most [`MAX_TRIPLES`] are given, so the cost is bounded on any frame.
pub(super) fn triples(finders: &[Finder]) -> Vec<Triple> {
    let n = finders.len();
    let mut out: Vec<Triple> = Vec::new();
    let mut near: Vec<(f32, usize)> = Vec::new();
    for i in 0..n {
        let fi = finders[i];
        near.clear();
        for (j, fj) in finders.iter().enumerate() {
            if j == i || fj.light != fi.light {
                continue;
            }
            let r = fj.unit / fi.unit;
            let d = ((fj.x - fi.x).powi(2) + (fj.y - fi.y).powi(2)).sqrt();
            // Finder centres of one code lie 14 (version 1) to 170 (version 40) modules apart.
            if (0.6..1.67).contains(&r) && d >= 10.0 * fi.unit && d <= 180.0 * fi.unit {
                near.push((d, j));
            }
        }
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        near.truncate(NEAREST);
        for (a, &(la, j)) in near.iter().enumerate() {
            for &(lb, k) in &near[a + 1..] {
                let (ax, ay) = (finders[j].x - fi.x, finders[j].y - fi.y);
                let (bx, by) = (finders[k].x - fi.x, finders[k].y - fi.y);
                let legs = (la - lb).abs() / la.max(lb);
                let cos = ((ax * bx + ay * by) / (la * lb)).abs();
                if legs < 0.3 && cos < 0.35 {
                    // Top right is clockwise of top left's other neighbour (y points down).
                    let cross = ax * by - ay * bx;
                    let (tr, bl) = if cross > 0.0 { (j, k) } else { (k, j) };
                    let units = [fi.unit, finders[j].unit, finders[k].unit];
                    let umax = units.iter().copied().fold(0.0f32, f32::max);
                    let umin = units.iter().copied().fold(f32::INFINITY, f32::min);
                    let spread = (umax - umin) / umax.max(1e-3);
                    out.push(Triple {
                        ids: [i, tr, bl],
                        quality: legs + cos + 0.5 * spread,
                    });
                }
            }
        }
    }
    let order = |a: &Triple, b: &Triple| a.quality.total_cmp(&b.quality).then(a.ids.cmp(&b.ids));
    // Only the best ones are kept: those picked first, then sorted (a total order, so the
    // same triples in the same order as a full sort).
    if out.len() > MAX_TRIPLES {
        out.select_nth_unstable_by(MAX_TRIPLES, order);
        out.truncate(MAX_TRIPLES);
    }
    out.sort_unstable_by(order);
    out
}

/// The region a triple covers (its four corners and a margin of a quiet zone and more).
pub(super) fn triple_region(finders: &[Finder], t: &Triple) -> Region {
    let [fi, fj, fk] = t.ids.map(|i| finders[i]);
    let fourth = (fj.x + fk.x - fi.x, fj.y + fk.y - fi.y);
    let xs = [fi.x, fj.x, fk.x, fourth.0];
    let ys = [fi.y, fj.y, fk.y, fourth.1];
    let unit = (fi.unit + fj.unit + fk.unit) / 3.0;
    let m = unit * 9.0;
    Region {
        triple: Some([(fi.x, fi.y), (fj.x, fj.y), (fk.x, fk.y)]),
        rect: [
            xs.iter().copied().fold(f32::INFINITY, f32::min) - m,
            ys.iter().copied().fold(f32::INFINITY, f32::min) - m,
            xs.iter().copied().fold(f32::NEG_INFINITY, f32::max) + m,
            ys.iter().copied().fold(f32::NEG_INFINITY, f32::max) + m,
        ],
        unit,
        light: fi.light,
    }
}

/// The region around a finder left over (its partners were missed): the code may lie on any
/// side of it.
pub(super) fn lone_region(f: &Finder) -> Region {
    let m = f.unit * 26.0;
    Region {
        rect: [f.x - m, f.y - m, f.x + m, f.y + m],
        unit: f.unit,
        triple: None,
        light: f.light,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block statistics as first written: every block's 5 × 5 and 3 × 3 windows summed
    /// directly, pixel by pixel. The fast version must give the same numbers.
    fn reference(g: &Gray, min_contrast: u8) -> (Vec<u8>, Vec<u8>, Vec<bool>) {
        let bs = 1 << BLOCK_SHIFT;
        let (bw, bh) = (g.w.div_ceil(bs), g.h.div_ceil(bs));
        let mut sum = vec![0u32; bw * bh];
        let mut count = vec![0u32; bw * bh];
        let mut lo = vec![255u8; bw * bh];
        let mut hi = vec![0u8; bw * bh];
        for y in (0..g.h).step_by(2) {
            for x in 0..g.w {
                let b = (y / bs) * bw + x / bs;
                let v = g.px[y * g.w + x];
                sum[b] += u32::from(v);
                count[b] += 1;
                lo[b] = lo[b].min(v);
                hi[b] = hi[b].max(v);
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
                let (mut s, mut n, mut l, mut h) = (0u32, 0u32, 255u8, 0u8);
                for yy in by.saturating_sub(2)..(by + 3).min(bh) {
                    for xx in bx.saturating_sub(2)..(bx + 3).min(bw) {
                        s += u32::from(mean[yy * bw + xx]);
                        n += 1;
                        if yy + 1 >= by && yy <= by + 1 && xx + 1 >= bx && xx <= bx + 1 {
                            l = l.min(lo[yy * bw + xx]);
                            h = h.max(hi[yy * bw + xx]);
                        }
                    }
                }
                let m = (s / n) as u8;
                let mid = ((u16::from(l) + u16::from(h)) / 2) as u8;
                thr[by * bw + bx] = ((u16::from(m) + u16::from(mid)) / 2) as u8;
                ok[by * bw + bx] = h.saturating_sub(l) >= min_contrast;
            }
        }
        (mean, thr, ok)
    }

    #[test]
    fn block_statistics_match_the_direct_sums_at_any_frame_size() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut flags = Vec::new();
        for (w, h) in [
            (21usize, 21usize),
            (100, 37),
            (333, 250),
            (16, 48),
            (257, 17),
        ] {
            let px: Vec<u8> = (0..w * h)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    // Smooth areas and noise, so that some blocks are flat and some are not.
                    if (i / w / 20 + i % w / 20) % 3 == 0 {
                        (seed % 256) as u8
                    } else {
                        (100 + seed % 8) as u8
                    }
                })
                .collect();
            let g = Gray { px: &px, w, h };
            let fast = BlockStats::of(&g, 32);
            let (mean, thr, ok) = reference(&g, 32);
            assert_eq!(fast.mean, mean, "{w}x{h} means");
            assert_eq!(fast.thr, thr, "{w}x{h} thresholds");
            assert_eq!(fast.ok, ok, "{w}x{h} contrast flags");
            flags.extend(ok);
        }
        // Both kinds of block were compared.
        assert!(flags.iter().any(|&o| o) && flags.iter().any(|&o| !o));
    }

    #[test]
    fn eight_pixels_at_once_compare_as_one_by_one() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut words = vec![0u64, u64::MAX, 0x8080_8080_8080_8080, 0x7F7F_7F7F_7F7F_7F7F];
        for _ in 0..200 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            words.push(seed);
        }
        let mut set = 0u32;
        for &v in &words {
            for t in 0..=255u8 {
                let want = v
                    .to_le_bytes()
                    .iter()
                    .enumerate()
                    .fold(0u32, |m, (i, &b)| m | u32::from(b < t) << i);
                assert_eq!(below_mask8(v, t), want, "{v:#018x} below {t}");
                set |= want;
            }
        }
        // Every bit position was set somewhere.
        assert_eq!(set, 0xFF);
    }

    #[test]
    fn the_whole_number_finder_ratio_agrees_with_the_measured_one() {
        let d = Detector::default();
        let mut tried = 0;
        for a in 1..9usize {
            for b in 1..9usize {
                for c in 1..20usize {
                    for e in [a, b, a + 1, b.saturating_sub(1)] {
                        let l = [a, b, c, e, a];
                        let total: usize = l.iter().sum();
                        let unit = total as f32 / 7.0;
                        let tol = unit * 0.6 + 0.5;
                        let single = |v: usize| (v as f32 - unit).abs() <= tol;
                        let center = (l[2] as f32 - 3.0 * unit).abs() <= unit * 1.2 + 0.5;
                        let want = (unit >= d.config.min_module_px
                            && unit <= d.config.max_module_px
                            && single(l[0])
                            && single(l[1])
                            && single(l[3])
                            && single(l[4])
                            && center)
                            .then_some(unit);
                        assert_eq!(d.finder_ratio(l), want, "{l:?}");
                        tried += 1;
                    }
                }
            }
        }
        assert!(tried > 1000);
    }
}
