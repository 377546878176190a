//! A small PDF writer: catalog, page tree, one compressed content stream per page, an exact
//! cross-reference table.
//!
//! Each content stream starts by mapping millimetres with y down onto PDF points
//! (`2.834646 0 0 -2.834646 0 <page height> cm`), so every coordinate in the stream is the
//! layout's own, in mm from the page's top-left corner.

use super::{MM_PER_INCH, Page, Seg, Shape, Sheet, num};
use std::fmt::Write as _;

/// PDF points per millimetre.
const PT_PER_MM: f32 = 72.0 / MM_PER_INCH;

/// The sheet as a PDF document (PDF 1.4, one page per sheet page, page size in points: A4 is
/// 595.276 × 841.89). Labels are filled glyph outlines, so no font is embedded.
pub fn to_pdf(sheet: &Sheet) -> Vec<u8> {
    let pages = sheet.pages.len();
    // Objects: 1 catalog, 2 page tree, 3 document info, then per page i: 4 + 2i the page,
    // 5 + 2i its content stream.
    let page_obj = |i: usize| 4 + 2 * i;
    let mut out: Vec<u8> = b"%PDF-1.4\n%\xE2\xE3\xCF\xD3\n".to_vec();
    let mut offsets: Vec<usize> = Vec::new();

    let mut object = |out: &mut Vec<u8>, body: &[u8]| {
        offsets.push(out.len());
        let number = offsets.len();
        out.extend_from_slice(format!("{number} 0 obj\n").as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    };

    object(&mut out, b"<< /Type /Catalog /Pages 2 0 R >>");
    let kids: Vec<String> = (0..pages).map(|i| format!("{} 0 R", page_obj(i))).collect();
    object(
        &mut out,
        format!(
            "<< /Type /Pages /Kids [{}] /Count {pages} >>",
            kids.join(" ")
        )
        .as_bytes(),
    );
    object(
        &mut out,
        b"<< /Title (Tableside card tags) /Creator (Tableside) /Producer (Tableside) >>",
    );
    for (i, page) in sheet.pages.iter().enumerate() {
        let (w, h) = (page.width_mm * PT_PER_MM, page.height_mm * PT_PER_MM);
        object(
            &mut out,
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {} {}] /Resources << >> /Contents {} 0 R >>",
                num(w),
                num(h),
                page_obj(i) + 1
            )
            .as_bytes(),
        );
        let content = content_stream(page);
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(content.as_bytes(), 6);
        let mut body = format!(
            "<< /Length {} /Filter /FlateDecode >>\nstream\n",
            packed.len()
        )
        .into_bytes();
        body.extend_from_slice(&packed);
        body.extend_from_slice(b"\nendstream");
        object(&mut out, &body);
    }

    let xref = out.len();
    let mut table = format!("xref\n0 {}\n0000000000 65535 f \n", offsets.len() + 1);
    for offset in &offsets {
        // Each entry is exactly 20 bytes, ending in space + newline.
        let _ = writeln!(table, "{offset:010} 00000 n ");
    }
    let _ = write!(
        table,
        "trailer\n<< /Size {} /Root 1 0 R /Info 3 0 R >>\nstartxref\n{xref}\n%%EOF\n",
        offsets.len() + 1
    );
    out.extend_from_slice(table.as_bytes());
    out
}

/// The uncompressed content stream of a page, in mm with y down.
pub(crate) fn content_stream(page: &Page) -> String {
    let mut s = String::new();
    // The scale to 6 decimals: 2.835 would make a 36 mm code 36.005 mm.
    let _ = writeln!(
        s,
        "{k:.6} 0 0 -{k:.6} 0 {h} cm",
        k = PT_PER_MM,
        h = num(page.height_mm * PT_PER_MM)
    );
    for shape in &page.shapes {
        match shape {
            Shape::FillRects(rects) => {
                s.push_str("0 g\n");
                for r in rects {
                    let _ = writeln!(s, "{} {} {} {} re", num(r.x), num(r.y), num(r.w), num(r.h));
                }
                s.push_str("f\n");
            }
            Shape::FillPath(segs) => {
                s.push_str("0 g\n");
                for seg in segs {
                    let _ = match seg {
                        Seg::Move(p) => writeln!(s, "{} {} m", num(p.x), num(p.y)),
                        Seg::Line(p) => writeln!(s, "{} {} l", num(p.x), num(p.y)),
                        Seg::Cubic(a, b, p) => writeln!(
                            s,
                            "{} {} {} {} {} {} c",
                            num(a.x),
                            num(a.y),
                            num(b.x),
                            num(b.y),
                            num(p.x),
                            num(p.y)
                        ),
                        Seg::Close => writeln!(s, "h"),
                    };
                }
                s.push_str("f\n");
            }
            Shape::StrokeRect {
                rect,
                width_mm,
                gray,
            } => {
                let _ = writeln!(
                    s,
                    "q {} G {} w {} {} {} {} re S Q",
                    num(*gray),
                    num(*width_mm),
                    num(rect.x),
                    num(rect.y),
                    num(rect.w),
                    num(rect.h)
                );
            }
        }
    }
    s
}
