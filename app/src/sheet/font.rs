//! Labels as vector outlines: the embedded Noto Sans CJK JP subset, read with `ttf-parser`.
//!
//! Text is set glyph by glyph on the font's advance widths (no kerning or shaping: the labels
//! are card names and ids, and the Japanese ones are set on a fixed em anyway). Each glyph's
//! outline becomes path segments in page millimetres (y down); quadratic curves are raised to
//! cubic ones, so the PDF and SVG writers need only `move`, `line`, `cubic` and `close`.

use super::{Pt, Rect, Seg, Shape};
use ttf_parser::{Face, GlyphId, OutlineBuilder};

/// Height above the baseline of the font's ideographic em box, in em (Noto CJK: 880/1000).
pub(crate) const ASCENT_EM: f32 = 0.88;
/// Depth below the baseline of the ideographic em box, in em.
pub(crate) const DESCENT_EM: f32 = 0.12;

/// The label font.
pub(crate) struct Font<'a> {
    face: Face<'a>,
    units_per_em: f32,
}

/// One line of text set in page millimetres.
pub(crate) struct SetLine {
    /// The glyph outlines (one path) and the placeholder boxes of missing glyphs.
    pub shapes: Vec<Shape>,
    /// Characters the font has no glyph for (each listed once, in order of appearance).
    pub missing: Vec<char>,
    /// The em size used, after shrinking to fit, in mm.
    pub em_mm: f32,
}

/// A glyph of a line: its id in the font (none when the font lacks it) and its advance in em.
struct Placed {
    glyph: Option<GlyphId>,
    advance_em: f32,
}

/// Advance of a missing glyph's placeholder box, in em.
const PLACEHOLDER_ADVANCE_EM: f32 = 0.8;

impl<'a> Font<'a> {
    /// Reads a font file (face 0).
    pub(crate) fn parse(bytes: &'a [u8]) -> Option<Font<'a>> {
        let face = Face::parse(bytes, 0).ok()?;
        let units_per_em = f32::from(face.units_per_em());
        (units_per_em > 0.0).then_some(Font { face, units_per_em })
    }

    fn glyphs(&self, text: &str) -> Vec<Placed> {
        text.chars()
            .map(|c| {
                // Tabs and line breaks are set as spaces: a label is one line.
                let c = if c.is_whitespace() { ' ' } else { c };
                match self.face.glyph_index(c).filter(|g| g.0 != 0) {
                    Some(g) => Placed {
                        glyph: Some(g),
                        advance_em: f32::from(self.face.glyph_hor_advance(g).unwrap_or(0))
                            / self.units_per_em,
                    },
                    None => Placed {
                        glyph: None,
                        advance_em: PLACEHOLDER_ADVANCE_EM,
                    },
                }
            })
            .collect()
    }

    /// The characters of `text` the font cannot draw, each once.
    pub(crate) fn missing(&self, text: &str) -> Vec<char> {
        let mut missing = Vec::new();
        for c in text.chars() {
            let c = if c.is_whitespace() { ' ' } else { c };
            if self.face.glyph_index(c).is_none_or(|g| g.0 == 0) && !missing.contains(&c) {
                missing.push(c);
            }
        }
        missing
    }

    /// Width of `text` at 1 em = 1 unit.
    #[cfg(test)]
    pub(crate) fn width_em(&self, text: &str) -> f32 {
        self.glyphs(text).iter().map(|g| g.advance_em).sum()
    }

    /// Sets `text` on one line centred on `center_x` with its baseline at `baseline_y`, at
    /// `em_mm`, shrunk so it is at most `max_width_mm` wide.
    pub(crate) fn line(
        &self,
        text: &str,
        em_mm: f32,
        max_width_mm: f32,
        center_x: f32,
        baseline_y: f32,
    ) -> SetLine {
        let glyphs = self.glyphs(text);
        let width_em: f32 = glyphs.iter().map(|g| g.advance_em).sum();
        let em = if width_em * em_mm > max_width_mm && width_em > 0.0 {
            max_width_mm / width_em
        } else {
            em_mm
        };
        let mut pen = Pen {
            segs: Vec::new(),
            origin: Pt {
                x: center_x - width_em * em / 2.0,
                y: baseline_y,
            },
            scale: em / self.units_per_em,
            current: Pt { x: 0.0, y: 0.0 },
        };
        let mut shapes = Vec::new();
        for g in &glyphs {
            match g.glyph {
                Some(id) => {
                    let _ = self.face.outline_glyph(id, &mut pen);
                }
                None => shapes.push(Shape::StrokeRect {
                    rect: Rect {
                        x: pen.origin.x + 0.1 * em,
                        y: baseline_y - 0.75 * em,
                        w: (PLACEHOLDER_ADVANCE_EM - 0.2) * em,
                        h: 0.85 * em,
                    },
                    width_mm: (0.06 * em).max(0.15),
                    gray: 0.0,
                }),
            }
            pen.origin.x += g.advance_em * em;
        }
        if !pen.segs.is_empty() {
            shapes.insert(0, Shape::FillPath(pen.segs));
        }
        SetLine {
            shapes,
            missing: self.missing(text),
            em_mm: em,
        }
    }
}

/// Collects a glyph's outline in page millimetres.
struct Pen {
    segs: Vec<Seg>,
    /// The glyph origin on the page (mm, y down).
    origin: Pt,
    /// Millimetres per font unit.
    scale: f32,
    /// The current point, in page mm.
    current: Pt,
}

impl Pen {
    fn at(&self, x: f32, y: f32) -> Pt {
        Pt {
            x: self.origin.x + x * self.scale,
            y: self.origin.y - y * self.scale,
        }
    }
}

impl OutlineBuilder for Pen {
    fn move_to(&mut self, x: f32, y: f32) {
        let p = self.at(x, y);
        self.segs.push(Seg::Move(p));
        self.current = p;
    }

    fn line_to(&mut self, x: f32, y: f32) {
        let p = self.at(x, y);
        self.segs.push(Seg::Line(p));
        self.current = p;
    }

    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        // A quadratic Bézier p0 q p is the cubic p0, p0 + 2/3 (q - p0), p + 2/3 (q - p), p.
        let q = self.at(x1, y1);
        let p = self.at(x, y);
        let p0 = self.current;
        let c1 = Pt {
            x: p0.x + 2.0 / 3.0 * (q.x - p0.x),
            y: p0.y + 2.0 / 3.0 * (q.y - p0.y),
        };
        let c2 = Pt {
            x: p.x + 2.0 / 3.0 * (q.x - p.x),
            y: p.y + 2.0 / 3.0 * (q.y - p.y),
        };
        self.segs.push(Seg::Cubic(c1, c2, p));
        self.current = p;
    }

    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let c1 = self.at(x1, y1);
        let c2 = self.at(x2, y2);
        let p = self.at(x, y);
        self.segs.push(Seg::Cubic(c1, c2, p));
        self.current = p;
    }

    fn close(&mut self) {
        self.segs.push(Seg::Close);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_font_draws_japanese_and_latin_and_reports_what_it_lacks() {
        let font = Font::parse(crate::ui::EMBEDDED_CJK_FONT).unwrap();
        assert!(font.missing("灯り小僧 JD07 #2 · alice").is_empty());
        // A private-use character is in no font.
        assert_eq!(font.missing("A\u{E000}B\u{E000}"), vec!['\u{E000}']);
        let set = font.line("灯り小僧", 5.0, 100.0, 50.0, 20.0);
        assert_eq!(set.em_mm, 5.0);
        assert!(matches!(set.shapes.first(), Some(Shape::FillPath(p)) if p.len() > 20));
        // Four full-width characters: 4 em.
        assert!((font.width_em("灯り小僧") - 4.0).abs() < 0.01);
        // Too wide: shrunk to fit.
        let shrunk = font.line("灯り小僧", 5.0, 10.0, 50.0, 20.0);
        assert!((shrunk.em_mm - 2.5).abs() < 0.01);
        // A missing glyph gives a visible box.
        let boxed = font.line("\u{E000}", 5.0, 100.0, 50.0, 20.0);
        assert!(matches!(
            boxed.shapes.as_slice(),
            [Shape::StrokeRect { .. }]
        ));
        assert_eq!(boxed.missing, vec!['\u{E000}']);
    }
}
