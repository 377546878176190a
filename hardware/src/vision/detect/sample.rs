//! Reading a code from where it is: the module grid laid through its finder centres (or a
//! known code's corners), sampled at module centres, checked against the function patterns,
//! thresholded in two ways and decoded. Tens of microseconds a code, and bounded by the grid
//! size (at most 177 × 177 samples).

use super::locate::BlockStats;
use super::{Detection, Detector, Ecc, Gray, ReadKind};
use crate::vision::geometry::{Homography, Point};

/// Grids whose function patterns disagree with more than this share of their modules are not
/// codes (or not laid right).
pub(super) const MAX_MISMATCH: f32 = 0.25;

/// Sampled module values of one grid laid over the frame.
pub(super) struct Samples {
    pub(super) n: usize,
    /// Grey level at each module centre, row by row.
    pub(super) grey: Vec<u8>,
    /// The frame's local threshold at each module centre.
    pub(super) local: Vec<u8>,
    /// One threshold for the whole grid (Otsu over the samples).
    pub(super) otsu: u8,
    /// Light-on-dark: the dark samples are the light modules.
    pub(super) light: bool,
}

impl Samples {
    /// Whether module (`x`, `y`) is a dark module of the code (for an inverted code, a light
    /// pixel), by the grid's one threshold.
    fn ink(&self, x: usize, y: usize) -> bool {
        (self.grey[y * self.n + x] <= self.otsu) != self.light
    }

    /// The bits by one of the thresholds: 0 Otsu over the grid, 1 the frame's local threshold,
    /// 2 a mean over the neighbouring 7 × 7 modules.
    fn bits(&self, how: u8) -> Vec<bool> {
        let n = self.n;
        match how {
            0 => self
                .grey
                .iter()
                .map(|&v| (v <= self.otsu) != self.light)
                .collect(),
            1 => self
                .grey
                .iter()
                .zip(&self.local)
                .map(|(&v, &t)| (v < t) != self.light)
                .collect(),
            _ => window_sums(&self.grey, n, n, 3)
                .into_iter()
                .zip(&self.grey)
                .map(|((sum, cnt), &v)| {
                    // Half way to the grid's one threshold: a window inside a large dark or
                    // light area keeps its colour.
                    let t = (sum / cnt.max(1) + u64::from(self.otsu)) / 2;
                    (u64::from(v) <= t) != self.light
                })
                .collect(),
        }
    }
}

/// For every pixel of a `w` × `h` buffer, the sum and the count of the values in the
/// (2`r`+1)² window around it (cut at the edges), from one integral image: linear in the pixels.
pub(super) fn window_sums(px: &[u8], w: usize, h: usize, r: usize) -> Vec<(u64, u64)> {
    let mut integral = vec![0u64; (w + 1) * (h + 1)];
    for y in 0..h {
        let mut row = 0u64;
        for x in 0..w {
            row += u64::from(px[y * w + x]);
            integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1] + row;
        }
    }
    let mut out = Vec::with_capacity(w * h);
    for y in 0..h {
        let (y0, y1) = (y.saturating_sub(r), (y + r + 1).min(h));
        for x in 0..w {
            let (x0, x1) = (x.saturating_sub(r), (x + r + 1).min(w));
            let s = integral[y1 * (w + 1) + x1] + integral[y0 * (w + 1) + x0]
                - integral[y0 * (w + 1) + x1]
                - integral[y1 * (w + 1) + x0];
            out.push((s, ((x1 - x0) * (y1 - y0)) as u64));
        }
    }
    out
}

/// The `n` × `n` module centres sampled through `h` (module units to pixels); `None` if the
/// grid leaves the frame.
pub(super) fn sample_grid(
    g: &Gray,
    stats: Option<&BlockStats>,
    h: &Homography,
    n: usize,
    light: bool,
) -> Option<Samples> {
    let m = &h.m;
    sample_mapped(g, stats, n, light, |u, v| {
        let w = m[6] * u + m[7] * v + m[8];
        if w.abs() < 1e-12 {
            return None;
        }
        Some((
            (m[0] * u + m[1] * v + m[2]) / w,
            (m[3] * u + m[4] * v + m[5]) / w,
        ))
    })
}

/// Samples an `n` × `n` module grid through any map from module coordinates to pixels.
fn sample_mapped(
    g: &Gray,
    stats: Option<&BlockStats>,
    n: usize,
    light: bool,
    map: impl Fn(f64, f64) -> Option<Point>,
) -> Option<Samples> {
    let mut grey = Vec::with_capacity(n * n);
    let mut local = Vec::with_capacity(if stats.is_some() { n * n } else { 0 });
    for y in 0..n {
        let v = y as f64 + 0.5;
        for x in 0..n {
            let p = map(x as f64 + 0.5, v)?;
            grey.push(bilinear(g.px, g.w, g.h, p)?);
            if let Some(s) = stats {
                local.push(s.threshold_at(p.0, p.1));
            }
        }
    }
    let otsu = otsu(&grey);
    Some(Samples {
        n,
        grey,
        local,
        otsu,
        light,
    })
}

/// Whether module (`x`, `y`) of a finder pattern is dark (outside it: the light separator).
fn finder_module(x: isize, y: isize) -> bool {
    let ring = x == 0 || y == 0 || x == 6 || y == 6;
    let core = (2..=4).contains(&x) && (2..=4).contains(&y);
    (0..7).contains(&x) && (0..7).contains(&y) && (ring || core)
}

/// The share of function-pattern modules (three finders with separators, two timing lines)
/// that do not look as they must: near 0 for a grid laid right, near 0.5 for noise.
pub(super) fn pattern_mismatch(s: &Samples) -> f32 {
    let n = s.n;
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
                if s.ink(gx as usize, gy as usize) != finder_module(fx, fy) {
                    wrong += 1;
                }
            }
        }
    }
    for i in 8..n - 8 {
        checked += 2;
        let want = i % 2 == 0;
        wrong += u32::from(s.ink(i, 6) != want) + u32::from(s.ink(6, i) != want);
    }
    wrong as f32 / checked.max(1) as f32
}

/// The function-pattern mismatch of an `n`-module grid laid by `h`, from the function modules
/// alone (a few hundred samples, not `n`²): the cheap test that rejects a wrong triple or
/// version before the whole grid is sampled. `None` if the grid leaves the frame.
pub(super) fn quick_mismatch(g: &Gray, h: &Homography, n: usize, light: bool) -> Option<f32> {
    let mut cells: Vec<(usize, usize, bool)> = Vec::with_capacity(3 * 81 + 2 * n);
    let origins = [(0isize, 0isize), (n as isize - 7, 0), (0, n as isize - 7)];
    for (ox, oy) in origins {
        for fy in -1..=7isize {
            for fx in -1..=7isize {
                let (gx, gy) = (ox + fx, oy + fy);
                if gx >= 0 && gy >= 0 && gx < n as isize && gy < n as isize {
                    cells.push((gx as usize, gy as usize, finder_module(fx, fy)));
                }
            }
        }
    }
    for i in 8..n.saturating_sub(8) {
        cells.push((i, 6, i % 2 == 0));
        cells.push((6, i, i % 2 == 0));
    }
    let mut grey = Vec::with_capacity(cells.len());
    for &(x, y, _) in &cells {
        let p = h.map((x as f64 + 0.5, y as f64 + 0.5))?;
        grey.push(bilinear(g.px, g.w, g.h, p)?);
    }
    let t = otsu(&grey);
    let wrong = cells
        .iter()
        .zip(&grey)
        .filter(|((_, _, want), v)| ((**v <= t) != light) != *want)
        .count();
    Some(wrong as f32 / cells.len().max(1) as f32)
}

/// The 18-bit version information word of version `v` (7–40): the version and its BCH(18, 6)
/// remainder.
fn version_word(v: u32) -> u32 {
    let mut rem = v << 12;
    for i in (12..18).rev() {
        if rem & (1 << i) != 0 {
            rem ^= 0x1F25 << (i - 12);
        }
    }
    (v << 12) | rem
}

/// The version a grid's two version-information blocks say (7–40), if either is within three
/// bit errors of a valid word.
pub(super) fn read_version(s: &Samples) -> Option<usize> {
    let n = s.n;
    if n < 45 {
        return None;
    }
    let (mut right, mut below) = (0u32, 0u32);
    for k in 0..18 {
        let (a, b) = (k / 3, n - 11 + k % 3);
        right |= u32::from(s.ink(b, a)) << k;
        below |= u32::from(s.ink(a, b)) << k;
    }
    let mut best: Option<(u32, u32)> = None;
    for v in 7..=40u32 {
        let w = version_word(v);
        let d = (w ^ right).count_ones().min((w ^ below).count_ones());
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, v));
        }
    }
    best.filter(|(d, _)| *d <= 3).map(|(_, v)| v as usize)
}

/// Lays the grid again through the alignment pattern found near where `h` puts it: the module
/// grid through the three finder centres and the alignment centre (a full homography). The
/// search widens (±4, then ±8 modules) as perspective moves the far corner from where the
/// finders alone put it.
/// How well an alignment pattern fits at `at` (module coordinates under `h`): of its 5 × 5
/// modules, how many look as they must (25 at best).
fn alignment_score(g: &Gray, h: &Homography, s: &Samples, at: (f64, f64)) -> Option<u32> {
    let mut score = 0;
    for y in -3i32..=3 {
        for x in -3i32..=3 {
            let r = x.abs().max(y.abs());
            let want = match r {
                0 | 2 => true,
                1 => false,
                _ => continue,
            };
            let p = h.map((at.0 + f64::from(x), at.1 + f64::from(y)))?;
            let Some(v) = bilinear(g.px, g.w, g.h, p) else {
                continue;
            };
            score += u32::from(((v <= s.otsu) != s.light) == want);
        }
    }
    Some(score)
}

/// The alignment pattern nearest `c` (module coordinates under `h`): searched in half-module
/// steps out to each `reach` in turn (stopping at a near-perfect fit), then refined to a
/// quarter module. Gives its score and centre.
fn find_alignment(
    g: &Gray,
    h: &Homography,
    s: &Samples,
    c: (f64, f64),
    reaches: &[(i32, f64)],
) -> Option<(u32, (f64, f64))> {
    let n = s.n as f64;
    let mut best = (0u32, (0.0, 0.0));
    for &(reach, step) in reaches {
        let k = (f64::from(reach) / step) as i32;
        for dy in -k..=k {
            for dx in -k..=k {
                let at = (c.0 + f64::from(dx) * step, c.1 + f64::from(dy) * step);
                if at.0 < 7.0 || at.1 < 7.0 || at.0 > n - 3.0 || at.1 > n - 3.0 {
                    continue;
                }
                let score = alignment_score(g, h, s, at)?;
                if score > best.0 {
                    best = (score, at);
                }
            }
        }
        if best.0 >= 23 {
            break;
        }
    }
    let centre = best.1;
    for dy in -2..=2 {
        for dx in -2..=2 {
            let at = (
                centre.0 + f64::from(dx) * 0.25,
                centre.1 + f64::from(dy) * 0.25,
            );
            if let Some(score) = alignment_score(g, h, s, at)
                && score > best.0
            {
                best = (score, at);
            }
        }
    }
    Some(best)
}

/// The grid laid again through the three finder centres and the bottom-right alignment
/// pattern, searched ±4 then ±8 modules from `c`, where `h` puts it.
fn align(
    g: &Gray,
    h: &Homography,
    s: &Samples,
    finders: [Point; 3],
    c: (f64, f64),
) -> Option<Homography> {
    let n = s.n;
    let (score, at) = find_alignment(g, h, s, c, &[(4, 0.5), (8, 1.0)])?;
    if score < 21 {
        return None;
    }
    let found = h.map(at)?;
    let nf = n as f64;
    Homography::from_points(
        [(3.5, 3.5), (nf - 3.5, 3.5), (3.5, nf - 3.5), c],
        [finders[0], finders[1], finders[2], found],
    )
}

/// For a code with several alignment patterns (version 7 and up): the grid sampled through
/// `h` corrected locally — each alignment pattern searched within 2 modules of where `h` puts
/// it, and every module moved by the bilinear blend of the corrections at the patterns around
/// it (none at the finders). Reads codes on bent paper or through a lens, where one
/// homography cannot fit the whole code.
fn sample_warped(
    g: &Gray,
    stats: Option<&BlockStats>,
    h: &Homography,
    s: &Samples,
) -> Option<Samples> {
    let n = s.n;
    let pos: Vec<f64> = super::symbol::alignment_positions(n)
        .iter()
        .map(|&a| f64::from(a) + 0.5)
        .collect();
    let k = pos.len();
    if k < 3 {
        return None;
    }
    // Corrections (module units) at each alignment grid node; the finder corners stay put.
    let mut d = vec![(0.0f64, 0.0f64); k * k];
    let mut found = 0;
    for (j, &y) in pos.iter().enumerate() {
        for (i, &x) in pos.iter().enumerate() {
            // The nodes at the three finders.
            let corner = (i == 0 && (j == 0 || j == k - 1)) || (i == k - 1 && j == 0);
            if corner {
                continue;
            }
            if let Some((score, at)) = find_alignment(g, h, s, (x, y), &[(2, 0.5)])
                && score >= 21
            {
                d[j * k + i] = (at.0 - x, at.1 - y);
                found += 1;
            }
        }
    }
    if found == 0 {
        return None;
    }
    let cell = |v: f64| -> (usize, f64) {
        if v <= pos[0] {
            return (0, 0.0);
        }
        for c in 0..k - 1 {
            if v <= pos[c + 1] {
                return (c, (v - pos[c]) / (pos[c + 1] - pos[c]));
            }
        }
        (k - 2, 1.0)
    };
    sample_mapped(g, stats, n, s.light, |u, v| {
        let ((ci, fx), (cj, fy)) = (cell(u), cell(v));
        let at = |i: usize, j: usize| d[j * k + i];
        let (a, b, c, e) = (
            at(ci, cj),
            at(ci + 1, cj),
            at(ci, cj + 1),
            at(ci + 1, cj + 1),
        );
        let dx = (a.0 * (1.0 - fx) + b.0 * fx) * (1.0 - fy) + (c.0 * (1.0 - fx) + e.0 * fx) * fy;
        let dy = (a.1 * (1.0 - fx) + b.1 * fx) * (1.0 - fy) + (c.1 * (1.0 - fx) + e.1 * fx) * fy;
        h.map((u + dx, v + dy))
    })
}

/// Whether both timing lines of a would-be code alternate as they must: along each leg of the
/// triple, three modules inside the line through the finder centres, from one finder's
/// separator to the other's, the colour changes about once a module. Independent of the
/// version, a few hundred pixel reads: a triple of finders from different codes (or of
/// look-alikes) fails here before any grid is laid.
fn timing_check(g: &Gray, stats: &BlockStats, p: [Point; 3], u: [f64; 3], light: bool) -> bool {
    for (a, other, ua) in [(p[1], p[2], u[1]), (p[2], p[1], u[2])] {
        let (dx, dy) = (a.0 - p[0].0, a.1 - p[0].1);
        let len = (dx * dx + dy * dy).sqrt();
        let (ox, oy) = (other.0 - p[0].0, other.1 - p[0].1);
        let olen = (ox * ox + oy * oy).sqrt();
        if len < 1.0 || olen < 1.0 {
            return false;
        }
        let unit = (u[0] + ua) / 2.0;
        let modules = len / unit;
        // From 5 modules past the first centre to 5 before the second (the timing modules
        // 8 … n − 9), 3 modules towards the third finder.
        let inner = modules - 10.0;
        if inner < 1.0 {
            return false;
        }
        let off = (ox / olen * 3.0 * u[0], oy / olen * 3.0 * u[0]);
        let off_a = (ox / olen * 3.0 * ua, oy / olen * 3.0 * ua);
        let steps = ((inner * 4.0).ceil() as usize).clamp(4, 800);
        let (mut flips, mut last) = (0usize, None);
        for i in 0..=steps {
            let f = (5.0 + inner * i as f64 / steps as f64) / modules;
            let o = (off.0 + (off_a.0 - off.0) * f, off.1 + (off_a.1 - off.1) * f);
            let (x, y) = (p[0].0 + dx * f + o.0, p[0].1 + dy * f + o.1);
            if x < 0.0 || y < 0.0 || x >= g.w as f64 || y >= g.h as f64 {
                return false;
            }
            let ink = stats.dark(g, x as usize, y as usize) != light;
            if last.is_some_and(|l| l != ink) {
                flips += 1;
            }
            last = Some(ink);
        }
        // `inner` modules alternate: about `inner` changes of colour.
        let want = inner.round();
        if (flips as f64) < want * 0.6 - 1.0 || (flips as f64) > want * 1.4 + 2.0 {
            return false;
        }
    }
    true
}

/// The module grid of an `n`-module code through its three finder centres (top left, top
/// right, bottom left), foreshortened along the top edge by `kx` and along the left edge by
/// `ky`: the ratio of a module's size at the top-left finder to its size at the far finder
/// (1, 1: a parallelogram). A homography from module coordinates to pixels.
fn perspective_lay(p: [Point; 3], n: usize, kx: f64, ky: f64) -> Option<Homography> {
    let d = n as f64 - 7.0;
    if d <= 0.0 || kx <= 0.0 || ky <= 0.0 {
        return None;
    }
    let (cx, cy) = ((kx - 1.0) / d, (ky - 1.0) / d);
    let x = ((p[1].0 * kx - p[0].0) / d, (p[1].1 * kx - p[0].1) / d);
    let y = ((p[2].0 * ky - p[0].0) / d, (p[2].1 * ky - p[0].1) / d);
    // In coordinates centred on the top-left finder (u - 3.5, v - 3.5).
    let m22 = 1.0 - 3.5 * cx - 3.5 * cy;
    if m22.abs() < 1e-9 {
        return None;
    }
    let m = [
        x.0,
        y.0,
        p[0].0 - 3.5 * x.0 - 3.5 * y.0,
        x.1,
        y.1,
        p[0].1 - 3.5 * x.1 - 3.5 * y.1,
        cx,
        cy,
        m22,
    ];
    Some(Homography {
        m: m.map(|v| v / m22),
    })
}

/// The centre of the bottom-right alignment pattern of an `n`-module code, in modules.
fn alignment_centre(n: usize) -> (f64, f64) {
    let c = n as f64 - 6.5;
    (c, c)
}

impl Detector {
    /// Reads a code from its three finder centres (top left, top right, bottom left): the
    /// module grid is laid through them (an affine map; the version from their distance and
    /// its neighbours, or from the version blocks of large codes), grids whose finder and
    /// timing patterns do not match are dropped, and a grid that does not decode is laid again
    /// through its alignment pattern.
    pub(super) fn read_triple(
        &self,
        g: &Gray,
        stats: Option<&BlockStats>,
        t: [(f32, f32); 3],
        units: [f32; 3],
        light: bool,
    ) -> Option<Detection> {
        let p = t.map(|(x, y)| (f64::from(x), f64::from(y)));
        let u = units.map(|u| f64::from(u.max(0.5)));
        if let Some(stats) = stats
            && !timing_check(g, stats, p, u, light)
        {
            return None;
        }
        let d = |a: Point, b: Point| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
        // Modules between finder centres, each leg measured in the modules of its two ends.
        let legs = d(p[0], p[1]) * 2.0 / (u[0] + u[1]) + d(p[0], p[2]) * 2.0 / (u[0] + u[2]);
        let estimate = (legs / 2.0 + 7.0 - 17.0) / 4.0;
        let base = estimate.round().clamp(1.0, 40.0) as usize;
        // Foreshortening from the finders' module sizes: a finder farther away looks smaller.
        let kx0 = (u[0] / u[1]).sqrt().clamp(0.7, 1.4);
        let ky0 = (u[0] / u[2]).sqrt().clamp(0.7, 1.4);
        // The grid of version `v` laid through the centres: the parallelogram, or foreshortened
        // as the finders' sizes say, whichever fits the function patterns better; with
        // `search`, then a few steps of foreshortening each way while that helps. Gives the
        // function-pattern mismatch and the map.
        let fit = |v: usize, search: bool| -> Option<(f32, Homography)> {
            let n = 17 + 4 * v;
            let quick = |k: (f64, f64)| {
                let h = perspective_lay(p, n, k.0, k.1)?;
                Some((quick_mismatch(g, &h, n, light)?, h))
            };
            let mut best_k = (1.0, 1.0);
            let mut best = quick(best_k)?;
            if (kx0 - 1.0).abs() + (ky0 - 1.0).abs() > 0.01
                && let Some(q) = quick((kx0, ky0))
                && q.0 < best.0
            {
                best = q;
                best_k = (kx0, ky0);
            }
            if search && best.0 >= MAX_MISMATCH * 0.4 && best.0 < 0.42 {
                for step in [0.08, 0.04, 0.02] {
                    for axis in 0..2 {
                        for sign in [-1.0, 1.0] {
                            let mut k = best_k;
                            if axis == 0 {
                                k.0 += sign * step;
                            } else {
                                k.1 += sign * step;
                            }
                            if let Some(q) = quick(k)
                                && q.0 < best.0
                            {
                                best = q;
                                best_k = k;
                            }
                        }
                    }
                }
            }
            Some(best)
        };
        let mut versions: Vec<usize> = Vec::with_capacity(6);
        let mut from_info = None;
        if base >= 6
            && let Some((q, h)) = fit(base.max(7), true)
            && q < MAX_MISMATCH
            && let Some(s) = sample_grid(g, None, &h, 17 + 4 * base.max(7), light)
            && let Some(v) = read_version(&s)
        {
            versions.push(v);
            from_info = Some(v);
        }
        let spread = if base >= 10 { 2 } else { 1 };
        for v in [base, base.saturating_sub(1), base + 1] {
            if (1..=40).contains(&v) && !versions.contains(&v) {
                versions.push(v);
            }
        }
        if spread == 2 {
            for v in [base.saturating_sub(2), base + 2] {
                if (1..=40).contains(&v) && !versions.contains(&v) {
                    versions.push(v);
                }
            }
        }
        // Versions by how well the function patterns fit; a version read from the code's own
        // version blocks first; a near-perfect fit ends the search.
        let mut scored: Vec<(f32, usize, f32, Homography)> = Vec::new();
        for v in versions {
            let Some((q, h)) = fit(v, false) else {
                continue;
            };
            let key = if from_info == Some(v) { -1.0 } else { q };
            scored.push((key, v, q, h));
            if q < 0.06 {
                break;
            }
        }
        scored.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut candidates = Vec::new();
        for &(_, v, q0, h0) in scored.iter().take(2) {
            // The fit without the foreshortening search is the one with it where that search
            // would not run (a good fit, or hopeless): no need to lay it again.
            let (q, h) = if !(MAX_MISMATCH * 0.4..0.42).contains(&q0) {
                (q0, h0)
            } else {
                let Some(fitted) = fit(v, true) else {
                    continue;
                };
                fitted
            };
            if q >= MAX_MISMATCH {
                continue;
            }
            let Some(s) = sample_grid(g, stats, &h, 17 + 4 * v, light) else {
                continue;
            };
            if pattern_mismatch(&s) < MAX_MISMATCH {
                candidates.push((h, s));
            }
        }
        for (h, s) in candidates {
            let n = s.n;
            let nf = n as f64;
            let mut read = self.decode_samples(&s).map(|r| (r, h));
            let mut aligned = None;
            if read.is_none()
                && n > 21
                && let Some(h2) = align(g, &h, &s, [p[0], p[1], p[2]], alignment_centre(n))
                && let Some(s2) = sample_grid(g, stats, &h2, n, light)
            {
                read = self.decode_samples(&s2).map(|r| (r, h2));
                aligned = Some((h2, s2));
            }
            if read.is_none() && n >= 45 {
                let (hb, sb) = aligned.as_ref().map_or((&h, &s), |(h2, s2)| (h2, s2));
                if let Some(s3) = sample_warped(g, stats, hb, sb) {
                    read = self.decode_samples(&s3).map(|r| (r, *hb));
                }
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

    /// Decodes sampled module values, by each threshold in turn until one reads.
    pub(super) fn decode_samples(&self, s: &Samples) -> Option<(rqrr::MetaData, String)> {
        let ways: &[u8] = if s.local.is_empty() {
            &[0, 2]
        } else {
            &[0, 1, 2]
        };
        let mut tried: Vec<Vec<bool>> = Vec::new();
        for &how in ways {
            let bits = s.bits(how);
            // The same bits again would fail again (and `rqrr`'s error correction is the
            // costly part of a read).
            if tried.contains(&bits) {
                continue;
            }
            if let Some(r) = self.decode_bits(&bits, s.n) {
                return Some(r);
            }
            tried.push(bits);
        }
        None
    }

    /// Re-reads a code where `hint` says it is: samples its module grid through the homography
    /// of its corners and decodes that. `None` if it does not read there.
    pub fn reread(&self, image: &image::GrayImage, hint: &Detection) -> Option<Detection> {
        let n = hint.modules();
        let nf = n as f64;
        let to = hint.corners.map(|c| (f64::from(c.0), f64::from(c.1)));
        let h = Homography::from_points([(0.0, 0.0), (nf, 0.0), (nf, nf), (0.0, nf)], to)?;
        let g = Gray {
            px: image.as_raw(),
            w: image.width() as usize,
            h: image.height() as usize,
        };
        let mut found = None;
        for light in [false, true] {
            let s = sample_grid(&g, None, &h, n, light)?;
            if pattern_mismatch(&s) <= MAX_MISMATCH {
                found = Some(s);
                break;
            }
        }
        let (meta, text) = self.decode_samples(&found?)?;
        Some(Detection {
            text,
            corners: hint.corners,
            version: u8::try_from(meta.version.0).unwrap_or(hint.version),
            ecc: Ecc::from_format_bits(meta.ecc_level),
            read: ReadKind::Reread,
        })
    }
}

/// Bilinear interpolation at pixel coordinates (pixel centres at +0.5); `None` outside.
pub(super) fn bilinear(px: &[u8], w: usize, h: usize, p: Point) -> Option<u8> {
    let (x, y) = (p.0 - 0.5, p.1 - 0.5);
    if !(x >= 0.0 && y >= 0.0 && x < (w - 1) as f64 && y < (h - 1) as f64) {
        return None;
    }
    // In fixed point, eight bits of fraction (a 256th of a pixel; whole numbers from here on,
    // the costly float rounding and conversions left out: tens of thousands of samples a
    // frame). x < w − 1 and y < h − 1, so the four pixels lie inside.
    let (xf, yf) = ((x * 256.0) as u32, (y * 256.0) as u32);
    let (xi, yi) = ((xf >> 8) as usize, (yf >> 8) as usize);
    let (fx, fy) = (xf & 255, yf & 255);
    let i = yi * w + xi;
    let at = |k: usize| u32::from(px.get(k).copied().unwrap_or(0));
    let top = at(i) * (256 - fx) + at(i + 1) * fx;
    let bottom = at(i + w) * (256 - fx) + at(i + w + 1) * fx;
    Some(((top * (256 - fy) + bottom * fy + (1 << 15)) >> 16) as u8)
}

/// Otsu's threshold: pixels at or below it are dark.
pub(super) fn otsu(px: &[u8]) -> u8 {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bilinear_samples_match_the_exact_interpolation() {
        let (w, h) = (7usize, 5usize);
        let px: Vec<u8> = (0..w * h).map(|i| ((i * 97 + 13) % 256) as u8).collect();
        let mut seen = 0;
        for sy in 0..=40 {
            for sx in 0..=60 {
                let p = (0.5 + sx as f64 * 0.1037, 0.5 + sy as f64 * 0.1013);
                let (x, y) = (p.0 - 0.5, p.1 - 0.5);
                let got = bilinear(&px, w, h, p);
                if x >= (w - 1) as f64 || y >= (h - 1) as f64 {
                    assert_eq!(got, None, "{p:?} lies outside");
                    continue;
                }
                let (xi, yi) = (x.floor() as usize, y.floor() as usize);
                let (fx, fy) = (x - xi as f64, y - yi as f64);
                let at = |xx: usize, yy: usize| f64::from(px[yy * w + xx]);
                let top = at(xi, yi) * (1.0 - fx) + at(xi + 1, yi) * fx;
                let bottom = at(xi, yi + 1) * (1.0 - fx) + at(xi + 1, yi + 1) * fx;
                let exact = top * (1.0 - fy) + bottom * fy;
                let got = got.map_or(-1.0, f64::from);
                // The position cut to a 256th of a pixel (at most one grey level between
                // neighbours 255 apart) and the value rounded: within 1.5 of the exact value.
                assert!((got - exact).abs() <= 1.5, "{p:?}: {got} against {exact}");
                seen += 1;
            }
        }
        assert!(seen > 1000);
        assert_eq!(bilinear(&px, w, h, (0.4, 1.0)), None);
    }

    #[test]
    fn version_words_match_the_standard() {
        // ISO/IEC 18004 Annex D: version 7 is 000111 110010 010100, version 40 is
        // 101000 110001 101001.
        assert_eq!(version_word(7), 0x07C94);
        assert_eq!(version_word(40), 0x28C69);
    }
}
