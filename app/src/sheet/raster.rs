//! A page as a greyscale image: every shape filled by pixel centre (no anti-aliasing), so QR
//! modules come out crisp at any resolution. For tests and quick previews, not for print.

use super::{MM_PER_INCH, Pt, Rect, Seg, Shape, Sheet};
use image::{GrayImage, Luma};

/// The highest resolution [`rasterize`] draws at (an A4 page at 1200 dpi is 140 megapixels).
pub const MAX_DPI: f32 = 1200.0;

/// Page `page` (0-based) of the sheet at `dpi` dots per inch, black on white, cut lines grey.
/// A page that does not exist, or a resolution that is not a number in 1..=[`MAX_DPI`], gives an
/// empty (0 × 0) image.
pub fn rasterize(sheet: &Sheet, page: usize, dpi: f32) -> GrayImage {
    let Some(page) = sheet.pages.get(page) else {
        return GrayImage::new(0, 0);
    };
    if !(1.0..=MAX_DPI).contains(&dpi) {
        return GrayImage::new(0, 0);
    }
    let px_per_mm = dpi / MM_PER_INCH;
    let width = (page.width_mm * px_per_mm).round() as u32;
    let height = (page.height_mm * px_per_mm).round() as u32;
    let mut img = GrayImage::from_pixel(width, height, Luma([255]));
    for shape in &page.shapes {
        match shape {
            Shape::FillRects(rects) => {
                for r in rects {
                    fill_rect(&mut img, r, px_per_mm, 0);
                }
            }
            Shape::FillPath(segs) => fill_path(&mut img, segs, px_per_mm, 0),
            Shape::StrokeRect {
                rect,
                width_mm,
                gray,
            } => {
                let level = (gray.clamp(0.0, 1.0) * 255.0).round() as u8;
                // At least one pixel wide, so a hairline does not vanish at low resolution.
                let half = (width_mm / 2.0).max(0.5 / px_per_mm);
                let edges = [
                    Rect {
                        x: rect.x - half,
                        y: rect.y - half,
                        w: rect.w + 2.0 * half,
                        h: 2.0 * half,
                    },
                    Rect {
                        x: rect.x - half,
                        y: rect.bottom() - half,
                        w: rect.w + 2.0 * half,
                        h: 2.0 * half,
                    },
                    Rect {
                        x: rect.x - half,
                        y: rect.y - half,
                        w: 2.0 * half,
                        h: rect.h + 2.0 * half,
                    },
                    Rect {
                        x: rect.right() - half,
                        y: rect.y - half,
                        w: 2.0 * half,
                        h: rect.h + 2.0 * half,
                    },
                ];
                for e in &edges {
                    fill_rect(&mut img, e, px_per_mm, level);
                }
            }
        }
    }
    img
}

/// The pixel indices whose centres lie in `[from, to)` (in pixels), clipped to `0..limit`.
fn span(from: f32, to: f32, limit: u32) -> std::ops::Range<u32> {
    let first = (from - 0.5).ceil().max(0.0);
    let end = (to - 0.5).ceil().max(0.0).min(limit as f32);
    (first as u32)..(end as u32)
}

fn fill_rect(img: &mut GrayImage, r: &Rect, px_per_mm: f32, level: u8) {
    let (w, h) = img.dimensions();
    let xs = span(r.x * px_per_mm, r.right() * px_per_mm, w);
    for y in span(r.y * px_per_mm, r.bottom() * px_per_mm, h) {
        fill_row(img, y, xs.clone(), level);
    }
}

/// Sets the pixels `xs` of row `y` (already clipped to the image) to `level`.
fn fill_row(img: &mut GrayImage, y: u32, xs: std::ops::Range<u32>, level: u8) {
    let width = img.width() as usize;
    let row = y as usize * width;
    if let Some(pixels) = img.get_mut(row + xs.start as usize..row + xs.end as usize) {
        pixels.fill(level);
    }
}

/// Fills a path by the non-zero winding rule.
fn fill_path(img: &mut GrayImage, segs: &[Seg], px_per_mm: f32, level: u8) {
    let (w, h) = img.dimensions();
    let edges = flatten(segs, px_per_mm);
    let Some((top, bottom)) = edges.iter().fold(None, |acc: Option<(f32, f32)>, (a, b)| {
        let lo = a.y.min(b.y);
        let hi = a.y.max(b.y);
        Some(acc.map_or((lo, hi), |(t, bt)| (t.min(lo), bt.max(hi))))
    }) else {
        return;
    };
    let mut crossings: Vec<(f32, i32)> = Vec::new();
    for y in span(top, bottom, h) {
        let yc = y as f32 + 0.5;
        crossings.clear();
        for (a, b) in &edges {
            let (lo, hi, dir) = if a.y < b.y { (a, b, 1) } else { (b, a, -1) };
            if lo.y <= yc && yc < hi.y {
                let t = (yc - lo.y) / (hi.y - lo.y);
                crossings.push((lo.x + t * (hi.x - lo.x), dir));
            }
        }
        crossings.sort_by(|p, q| p.0.total_cmp(&q.0));
        let mut winding = 0;
        for pair in crossings.windows(2) {
            let (Some(&(x0, d)), Some(&(x1, _))) = (pair.first(), pair.get(1)) else {
                continue;
            };
            winding += d;
            if winding != 0 {
                fill_row(img, y, span(x0, x1, w), level);
            }
        }
    }
}

/// Closes the open contour (if any) back to its start.
fn close(edges: &mut Vec<(Pt, Pt)>, start: &mut Option<Pt>, current: Pt) {
    if let Some(s) = start.take()
        && (s.x != current.x || s.y != current.y)
    {
        edges.push((current, s));
    }
}

/// The path as straight edges in pixels, every contour closed.
fn flatten(segs: &[Seg], px_per_mm: f32) -> Vec<(Pt, Pt)> {
    let px = |p: &Pt| Pt {
        x: p.x * px_per_mm,
        y: p.y * px_per_mm,
    };
    let mut edges = Vec::new();
    let mut start: Option<Pt> = None;
    let mut current = Pt { x: 0.0, y: 0.0 };
    for seg in segs {
        match seg {
            Seg::Move(p) => {
                close(&mut edges, &mut start, current);
                current = px(p);
                start = Some(current);
            }
            Seg::Line(p) => {
                let p = px(p);
                edges.push((current, p));
                current = p;
            }
            Seg::Cubic(a, b, p) => {
                let (c1, c2, p) = (px(a), px(b), px(p));
                let dist = |u: Pt, v: Pt| ((u.x - v.x).powi(2) + (u.y - v.y).powi(2)).sqrt();
                let length = dist(current, c1) + dist(c1, c2) + dist(c2, p);
                let steps = (length / 2.0).ceil().clamp(2.0, 64.0) as usize;
                let p0 = current;
                for i in 1..=steps {
                    let t = i as f32 / steps as f32;
                    let u = 1.0 - t;
                    let q = Pt {
                        x: u * u * u * p0.x
                            + 3.0 * u * u * t * c1.x
                            + 3.0 * u * t * t * c2.x
                            + t * t * t * p.x,
                        y: u * u * u * p0.y
                            + 3.0 * u * u * t * c1.y
                            + 3.0 * u * t * t * c2.y
                            + t * t * t * p.y,
                    };
                    edges.push((current, q));
                    current = q;
                }
            }
            Seg::Close => {
                if let Some(s) = start {
                    close(&mut edges, &mut start, current);
                    current = s;
                }
            }
        }
    }
    close(&mut edges, &mut start, current);
    edges
}
