//! SVG output: one standalone document per page, sized in millimetres.

use super::{Seg, Shape, Sheet, num};
use std::fmt::Write as _;

/// The sheet as SVG: one standalone document per page (`width="210mm" height="297mm"` with a
/// `viewBox` in mm), labels as filled `<path>` outlines, so no font is needed to view it.
pub fn to_svg(sheet: &Sheet) -> Vec<String> {
    let count = sheet.pages.len();
    sheet
        .pages
        .iter()
        .enumerate()
        .map(|(i, page)| {
            let (w, h) = (num(page.width_mm), num(page.height_mm));
            let mut s = String::new();
            let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
            let _ = writeln!(
                s,
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">"#
            );
            let _ = writeln!(
                s,
                "<title>Tableside card tags, page {} of {count}</title>",
                i + 1
            );
            let _ = writeln!(s, r##"<rect width="{w}" height="{h}" fill="#fff"/>"##);
            for placed in &page.placed {
                let _ = writeln!(
                    s,
                    "<!-- {} · {} · {} -->",
                    placed.payload,
                    escape(&placed.label).replace("--", "- -"),
                    escape(&placed.sublabel).replace("--", "- -")
                );
            }
            for shape in &page.shapes {
                match shape {
                    Shape::FillRects(rects) => {
                        s.push_str(r##"<path fill="#000" d=""##);
                        for r in rects {
                            let _ = write!(
                                s,
                                "M{} {}h{}v{}h-{}z",
                                num(r.x),
                                num(r.y),
                                num(r.w),
                                num(r.h),
                                num(r.w)
                            );
                        }
                        s.push_str("\"/>\n");
                    }
                    Shape::FillPath(segs) => {
                        s.push_str(r##"<path fill="#000" d=""##);
                        for seg in segs {
                            let _ = match seg {
                                Seg::Move(p) => write!(s, "M{} {}", num(p.x), num(p.y)),
                                Seg::Line(p) => write!(s, "L{} {}", num(p.x), num(p.y)),
                                Seg::Cubic(a, b, p) => write!(
                                    s,
                                    "C{} {} {} {} {} {}",
                                    num(a.x),
                                    num(a.y),
                                    num(b.x),
                                    num(b.y),
                                    num(p.x),
                                    num(p.y)
                                ),
                                Seg::Close => write!(s, "Z"),
                            };
                        }
                        s.push_str("\"/>\n");
                    }
                    Shape::StrokeRect {
                        rect,
                        width_mm,
                        gray,
                    } => {
                        let level = (gray.clamp(0.0, 1.0) * 255.0).round() as u8;
                        let _ = writeln!(
                            s,
                            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#{level:02x}{level:02x}{level:02x}" stroke-width="{}"/>"##,
                            num(rect.x),
                            num(rect.y),
                            num(rect.w),
                            num(rect.h),
                            num(*width_mm)
                        );
                    }
                }
            }
            s.push_str("</svg>\n");
            s
        })
        .collect()
}

/// Escapes text for XML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
