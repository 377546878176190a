#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The printable tag sheet (`tableside::sheet`), checked the way a user would: print it, point a
//! QR reader at it, measure it with a ruler, open it in a PDF viewer.
//!
//! The printed pages are read back with `rqrr` from our own raster and, where poppler is
//! installed, from poppler's rendering of the PDF itself.

use cards::catalogue::Catalogue;
use cards::tags::{Corner, Scanned, scan};
use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::Command;
use tableside::sheet::{
    CARD_MM, Code, DEFAULT_TAG_MM, MIN_MARGIN_MM, MM_PER_INCH, Paper, QR_MODULES, QR_V1_MODULES,
    QUIET_ZONE_MODULES, RECOMMENDED_TAG_MM, STICKER_TOP_MM, Sheet, SheetError, SheetOptions,
    SheetWarning, Sticker, TAG_MM_4K, TAG_MM_720P, layout, number_copies, rasterize, stickers_for,
    tag_measures, to_pdf, to_svg,
};

/// Every demo catalogue the sheet is tested with. Other games' demo catalogues go here as they
/// land (e.g. `Catalogue::junk_ken_demo().unwrap()`): every test below iterates over this list.
fn catalogues() -> Vec<Catalogue> {
    cards::core::GameId::ALL
        .into_iter()
        .map(|g| Catalogue::builtin(g).unwrap())
        .collect()
}

/// What a reader gets from a page: every decoded text. Each must be a code at level Q: a card
/// tag of version 1 or 2 (one version per sheet), a corner marker of version 2.
fn decode_page(width: usize, height: usize, pixel: impl Fn(usize, usize) -> u8) -> Vec<String> {
    let found = catch_unwind(AssertUnwindSafe(|| {
        let mut prepared = rqrr::PreparedImage::prepare_from_greyscale(width, height, &pixel);
        let grids = prepared.detect_grids();
        let mut read = Vec::new();
        for grid in &grids {
            // rqrr 0.11 can panic on odd images: one bad grid must not hide the others.
            if let Ok(Ok((meta, text))) = catch_unwind(AssertUnwindSafe(|| grid.decode())) {
                read.push((meta.version.0, meta.ecc_level, text));
            }
        }
        read
    }));
    let read = found.unwrap_or_else(|_| {
        println!("note: rqrr panicked on a {width} × {height} page");
        Vec::new()
    });
    read.into_iter()
        .map(|(version, ecc_level, text)| {
            let marker = text.starts_with("TS1:M:");
            let versions: &[usize] = if marker { &[2] } else { &[1, 2] };
            assert!(
                versions.contains(&version),
                "{text}: a version-{version} code"
            );
            // rqrr reports the format bits' level: 0 M, 1 L, 2 H, 3 Q.
            assert_eq!(ecc_level, 3, "{text}: not at level Q");
            text
        })
        .collect()
}

/// The codes placed on page `page`.
fn placed_codes(sheet: &Sheet, page: usize) -> BTreeSet<Code> {
    sheet.pages[page]
        .placed
        .iter()
        .map(|p| p.code.clone())
        .collect()
}

/// The codes read back from `texts`; every text must be a Tableside code, each read once.
fn scanned_codes(texts: &[String]) -> BTreeSet<Code> {
    let mut set = BTreeSet::new();
    for text in texts {
        let code = match scan(text) {
            Ok(Scanned::Card(tag)) => Code::Card(tag),
            Ok(Scanned::Corner(corner)) => Code::Corner(corner),
            Err(e) => panic!("`{text}` read back but is not a tag: {e}"),
        };
        assert!(set.insert(code), "`{text}` read twice");
    }
    set
}

/// Reads a page back the way a player holds a card up to the camera, one sticker at a time:
/// each sticker's area must read as exactly one code, its own. The whole page is read too, and
/// nothing there may be foreign. Returns the codes read.
///
/// A whole page is not enough on its own: rqrr 0.11 groups the finder patterns of neighbouring
/// codes that line up on a grid into phantom codes, which then fail to decode, so on a page of
/// 12 aligned stickers it reads only a few of them.
fn read_back(
    width: usize,
    height: usize,
    pixel: impl Fn(usize, usize) -> u8,
    page: &tableside::sheet::Page,
    px_per_mm: f32,
    what: &str,
) -> BTreeSet<Code> {
    let mut read = BTreeSet::new();
    for p in &page.placed {
        let s = p.sticker;
        let x0 = ((s.x * px_per_mm) as usize).min(width);
        let y0 = ((s.y * px_per_mm) as usize).min(height);
        let x1 = ((s.right() * px_per_mm).ceil() as usize).min(width);
        let y1 = ((s.bottom() * px_per_mm).ceil() as usize).min(height);
        let texts = decode_page(x1 - x0, y1 - y0, |x, y| pixel(x0 + x, y0 + y));
        let codes = scanned_codes(&texts);
        assert_eq!(
            codes,
            BTreeSet::from([p.code.clone()]),
            "{what}: the sticker of {} reads {texts:?}",
            p.payload
        );
        read.extend(codes);
    }
    let placed: BTreeSet<Code> = page.placed.iter().map(|p| p.code.clone()).collect();
    // At half the resolution: rqrr copies the whole image for every candidate grouping.
    let whole = scanned_codes(&decode_page(width / 2, height / 2, |x, y| {
        pixel(2 * x, 2 * y)
    }));
    let foreign: Vec<&Code> = whole.difference(&placed).collect();
    assert!(
        foreign.is_empty(),
        "{what}: the page reads codes not placed: {foreign:?}"
    );
    read
}

/// Checks that every page of `sheet`, rasterized at `dpi`, reads back exactly the codes placed
/// on it (none missing, none extra). Returns how many were read.
fn assert_pages_read_back(sheet: &Sheet, dpi: f32, what: &str) -> usize {
    let mut total = 0;
    for (n, page) in sheet.pages.iter().enumerate() {
        let img = rasterize(sheet, n, dpi);
        let what = format!("{what}, page {}", n + 1);
        let read = read_back(
            img.width() as usize,
            img.height() as usize,
            |x, y| img.get_pixel(x as u32, y as u32).0[0],
            page,
            dpi / MM_PER_INCH,
            &what,
        );
        assert_eq!(read, placed_codes(sheet, n), "{what}");
        total += read.len();
    }
    total
}

fn deck_stickers(catalogue: &Catalogue, deck: usize, lang: &str) -> Vec<Sticker> {
    let deck = &catalogue.decks[deck];
    stickers_for(catalogue, &number_copies(&deck.cards), lang, Some("tester")).unwrap()
}

#[test]
fn every_tag_of_every_demo_deck_reads_back_from_the_printed_sheet() {
    for catalogue in catalogues() {
        assert!(
            !catalogue.decks.is_empty(),
            "{}: no decks",
            catalogue.set.id
        );
        for (i, deck) in catalogue.decks.iter().enumerate() {
            let lang = if i % 2 == 0 { "ja" } else { "en" };
            let stickers = deck_stickers(&catalogue, i, lang);
            // The copies of one card are numbered 1, 2, … and every sticker is a distinct copy.
            let tags: BTreeSet<_> = stickers.iter().map(|s| s.tag.clone()).collect();
            assert_eq!(tags.len(), deck.cards.len(), "{}", deck.id);
            let sheet = layout(
                &stickers,
                &SheetOptions {
                    markers: true,
                    ..SheetOptions::default()
                },
            )
            .unwrap();
            let what = format!("{} deck {}", catalogue.set.id, deck.id);
            // 200 dpi: a 1.44 mm module is 11 pixels, plenty for rqrr, and half the work of 300.
            let read = assert_pages_read_back(&sheet, 200.0, &what);
            assert_eq!(read, deck.cards.len() + 4, "{what}");
            // The marker page is last and holds exactly the four corners.
            let last = sheet.pages.len() - 1;
            let corners: BTreeSet<_> = Corner::ALL.into_iter().map(Code::Corner).collect();
            assert_eq!(placed_codes(&sheet, last), corners);
        }
    }
}

/// Every sticker of every ready-made deck of a set: the set's physical cards.
fn set_stickers(catalogue: &Catalogue) -> Vec<Sticker> {
    let mut out = Vec::new();
    for list in &catalogue.decks {
        let deck = cards::decks::Deck::from_list(catalogue, &list.id, "").unwrap();
        let copies: Vec<(String, u16)> = deck.copies().map(|c| (c.card.clone(), c.copy)).collect();
        out.extend(stickers_for(catalogue, &copies, "ja", None).unwrap());
    }
    out
}

#[test]
fn every_demo_set_prints_one_distinct_tag_per_copy_that_fits_a_card_at_every_recommended_size() {
    for catalogue in catalogues() {
        let stickers = set_stickers(&catalogue);
        let what = &catalogue.set.id;
        // Every physical card of the set, across all its decks, has its own tag.
        let payloads: BTreeSet<String> = stickers.iter().map(|s| s.tag.encode().unwrap()).collect();
        assert_eq!(
            payloads.len(),
            stickers.len(),
            "{what}: a tag is printed twice"
        );
        for (camera, tag_mm) in RECOMMENDED_TAG_MM {
            let sheet = layout(
                &stickers,
                &SheetOptions {
                    tag_mm,
                    ..SheetOptions::default()
                },
            )
            .unwrap();
            assert!(
                sheet.warnings.is_empty(),
                "{what} at {camera}: {:?}",
                sheet.warnings
            );
            let placed: Vec<_> = sheet.pages.iter().flat_map(|p| &p.placed).collect();
            assert_eq!(placed.len(), stickers.len());
            let printed: BTreeSet<&str> = placed.iter().map(|p| p.payload.as_str()).collect();
            assert_eq!(printed.len(), stickers.len(), "{what} at {camera}");
            for p in placed {
                // The code with its quiet zone, and the whole sticker, fit a 63 × 88 mm card.
                assert_eq!(p.modules, QR_V1_MODULES, "{}", p.payload);
                let with_quiet = p.symbol.w + 2.0 * p.quiet_mm;
                assert!(
                    with_quiet <= CARD_MM.0 && p.sticker.w <= CARD_MM.0,
                    "{what} at {camera}: {} is {with_quiet:.1} mm wide with its quiet zone",
                    p.payload
                );
                assert!(
                    STICKER_TOP_MM + p.sticker.h <= CARD_MM.1,
                    "{}: {} mm tall",
                    p.payload,
                    p.sticker.h
                );
                // The documented card offset is where the tag's centre lies on the card.
                let (_, _, offset) = tag_measures(tag_mm, true);
                let tag_center_from_top =
                    STICKER_TOP_MM + p.symbol.y - p.sticker.y + p.symbol.h / 2.0;
                assert!((CARD_MM.1 / 2.0 - tag_center_from_top - offset).abs() < 1e-3);
            }
        }
    }
    // The 720p size reads back from the printed page.
    let jaken = Catalogue::jaken_demo().unwrap();
    let stickers = deck_stickers(&jaken, 0, "en");
    let sheet = layout(
        &stickers,
        &SheetOptions {
            tag_mm: TAG_MM_720P,
            ..SheetOptions::default()
        },
    )
    .unwrap();
    assert_eq!(
        assert_pages_read_back(&sheet, 150.0, "720p tags"),
        stickers.len()
    );
    // A copy twice on one sheet is refused.
    let mut twice = stickers.clone();
    twice.push(stickers[3].clone());
    assert!(matches!(
        layout(&twice, &SheetOptions::default()),
        Err(SheetError::Repeated { count: 2, .. })
    ));
}

#[test]
fn small_4k_tags_on_letter_read_back_too() {
    for catalogue in catalogues() {
        let stickers = deck_stickers(&catalogue, 0, "en");
        let sheet = layout(
            &stickers,
            &SheetOptions {
                tag_mm: TAG_MM_4K,
                paper: Paper::Letter,
                ..SheetOptions::default()
            },
        )
        .unwrap();
        // 30 × 31.5 mm stickers: 6 × 8 = 48 on a Letter page.
        let per_page = sheet.pages[0].placed.len();
        assert_eq!(per_page, stickers.len().min(48), "{}", catalogue.set.id);
        assert_eq!(
            sheet.pages.len(),
            stickers.len().div_ceil(48),
            "{}",
            catalogue.set.id
        );
        let read = assert_pages_read_back(&sheet, 300.0, "4K-size tags");
        assert_eq!(read, stickers.len());
    }
}

/// The dark bounding box of the code in `symbol` (mm), measured on `img` at `px_per_mm`: the
/// search covers the symbol and half its quiet zone, so neither the cut line nor the labels are
/// in it. Returns (width, height) in mm.
fn measured_symbol_mm(
    img_width: u32,
    img_height: u32,
    pixel: impl Fn(u32, u32) -> u8,
    symbol: &tableside::sheet::Rect,
    module: f32,
    px_per_mm: f32,
) -> (f32, f32) {
    let margin = 2.0 * module;
    let x0 = ((symbol.x - margin) * px_per_mm).max(0.0) as u32;
    let y0 = ((symbol.y - margin) * px_per_mm).max(0.0) as u32;
    let x1 = (((symbol.right() + margin) * px_per_mm) as u32).min(img_width);
    let y1 = (((symbol.bottom() + margin) * px_per_mm) as u32).min(img_height);
    let (mut left, mut top, mut right, mut bottom) = (u32::MAX, u32::MAX, 0, 0);
    for y in y0..y1 {
        for x in x0..x1 {
            if pixel(x, y) < 128 {
                left = left.min(x);
                right = right.max(x);
                top = top.min(y);
                bottom = bottom.max(y);
            }
        }
    }
    assert!(left <= right, "no dark pixel where the code should be");
    (
        (right - left + 1) as f32 / px_per_mm,
        (bottom - top + 1) as f32 / px_per_mm,
    )
}

#[test]
fn codes_are_tag_mm_wide_stickers_fit_a_card_and_stay_within_the_margins() {
    let catalogue = &catalogues()[0];
    let stickers = deck_stickers(catalogue, 0, "ja");
    for (tag_mm, paper) in [
        (DEFAULT_TAG_MM, Paper::A4),
        (TAG_MM_4K, Paper::Letter),
        (24.5, Paper::A4),
    ] {
        let opts = SheetOptions {
            tag_mm,
            paper,
            markers: true,
            ..SheetOptions::default()
        };
        let sheet = layout(&stickers, &opts).unwrap();
        assert!(sheet.warnings.is_empty(), "{:?}", sheet.warnings);
        // One pixel is 0.085 mm: a measured width is within a pixel of the true one.
        let dpi = 300.0;
        let px_per_mm = dpi / MM_PER_INCH;
        for (n, page) in sheet.pages.iter().enumerate() {
            let (pw, ph) = paper.size_mm();
            assert_eq!((page.width_mm, page.height_mm), (pw, ph));
            let inside_margins = tableside::sheet::Rect {
                x: MIN_MARGIN_MM,
                y: MIN_MARGIN_MM,
                w: pw - 2.0 * MIN_MARGIN_MM,
                h: ph - 2.0 * MIN_MARGIN_MM,
            };
            let img = rasterize(&sheet, n, dpi);
            for p in &page.placed {
                let expected = match p.code {
                    Code::Card(_) => tag_mm,
                    Code::Corner(_) => opts.marker_mm,
                };
                // From the layout.
                assert!((p.symbol.w - expected).abs() < 1e-3, "{p:?}");
                assert!((p.module_mm * p.modules as f32 - expected).abs() < 1e-3);
                let modules = match p.code {
                    Code::Card(_) => QR_V1_MODULES,
                    Code::Corner(_) => QR_MODULES,
                };
                assert_eq!(p.modules, modules, "{p:?}");
                assert!(
                    inside_margins.contains(&p.sticker, 1e-3),
                    "{p:?} outside margins"
                );
                let quiet = QUIET_ZONE_MODULES as f32 * p.module_mm;
                let with_quiet_zone = tableside::sheet::Rect {
                    x: p.symbol.x - quiet,
                    y: p.symbol.y - quiet,
                    w: p.symbol.w + 2.0 * quiet,
                    h: p.symbol.h + 2.0 * quiet,
                };
                assert!(
                    p.sticker.contains(&with_quiet_zone, 1e-3),
                    "quiet zone cut: {p:?}"
                );
                if matches!(p.code, Code::Card(_)) {
                    assert!(
                        p.sticker.w <= CARD_MM.0 && p.sticker.h <= CARD_MM.1,
                        "a {tag_mm} mm sticker is {} × {} mm",
                        p.sticker.w,
                        p.sticker.h
                    );
                }
                // From the printed page.
                let (w, h) = measured_symbol_mm(
                    img.width(),
                    img.height(),
                    |x, y| img.get_pixel(x, y).0[0],
                    &p.symbol,
                    p.module_mm,
                    px_per_mm,
                );
                assert!(
                    (w - expected).abs() <= 0.1 && (h - expected).abs() <= 0.1,
                    "{}: printed {w:.3} × {h:.3} mm, expected {expected} mm",
                    p.payload
                );
            }
            // Stickers never overlap (neighbours share an edge).
            for (i, a) in page.placed.iter().enumerate() {
                for b in page.placed.iter().skip(i + 1) {
                    let (a, b) = (a.sticker, b.sticker);
                    let overlap_x = a.right().min(b.right()) - a.x.max(b.x);
                    let overlap_y = a.bottom().min(b.bottom()) - a.y.max(b.y);
                    assert!(
                        overlap_x <= 1e-3 || overlap_y <= 1e-3,
                        "{a:?} overlaps {b:?}"
                    );
                }
            }
        }
    }
}

/// Finds `needle` in `hay`, last occurrence.
fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// Checks a PDF's trailer and cross-reference table: every offset lands on `N 0 obj`. Returns
/// the number of entries (objects + the free entry 0).
fn check_xref(pdf: &[u8]) -> usize {
    assert!(pdf.starts_with(b"%PDF-1."), "no PDF header");
    assert!(pdf.ends_with(b"%%EOF\n"), "no %%EOF");
    let start = rfind(pdf, b"startxref\n").unwrap() + "startxref\n".len();
    let tail = std::str::from_utf8(&pdf[start..]).unwrap();
    let xref: usize = tail.lines().next().unwrap().trim().parse().unwrap();
    assert!(
        pdf[xref..].starts_with(b"xref\n"),
        "startxref does not point at the xref table"
    );
    // The table and trailer are ASCII.
    let table = std::str::from_utf8(&pdf[xref..]).unwrap();
    let header: Vec<usize> = table
        .lines()
        .nth(1)
        .unwrap()
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(header[0], 0);
    let count = header[1];
    // Every entry is exactly 20 bytes.
    let entries_at = "xref\n".len() + format!("0 {count}\n").len();
    for n in 0..count {
        let entry = &table[entries_at + 20 * n..entries_at + 20 * (n + 1)];
        assert!(
            entry.ends_with(" \n") || entry.ends_with("\r\n"),
            "entry {n}: {entry:?}"
        );
        if n == 0 {
            assert_eq!(entry, "0000000000 65535 f \n");
            continue;
        }
        assert_eq!(&entry[10..18], " 00000 n", "entry {n}: {entry:?}");
        let offset: usize = entry[..10].parse().unwrap();
        let obj = format!("{n} 0 obj\n");
        assert!(
            pdf[offset..].starts_with(obj.as_bytes()),
            "xref entry {n} points at {:?}",
            String::from_utf8_lossy(&pdf[offset..offset + 12])
        );
    }
    let trailer = &table[entries_at + 20 * count..];
    assert!(trailer.starts_with("trailer\n"), "{trailer}");
    assert!(trailer.contains(&format!("/Size {count} ")), "{trailer}");
    assert!(trailer.contains("/Root 1 0 R"), "{trailer}");
    count
}

fn has_tool(name: &str) -> bool {
    Command::new(name).arg("-v").output().is_ok()
}

/// Reads a binary greyscale PGM (P5, 8 bits), as `pdftoppm -gray` writes it.
fn read_pgm(bytes: &[u8]) -> (usize, usize, Vec<u8>) {
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
    }
    assert_eq!(fields[0], "P5");
    assert_eq!(fields[3], "255");
    let (w, h) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    let pixels = bytes[at + 1..].to_vec();
    assert_eq!(pixels.len(), w * h);
    (w, h, pixels)
}

#[test]
fn the_pdf_is_well_formed_and_poppler_reads_its_pages_sizes_and_codes() {
    let catalogue = &catalogues()[0];
    let lantern = catalogue
        .decks
        .iter()
        .position(|d| d.id == "lantern")
        .unwrap_or(0);
    let stickers = deck_stickers(catalogue, lantern, "ja");
    for paper in [Paper::A4, Paper::Letter] {
        let sheet = layout(
            &stickers,
            &SheetOptions {
                paper,
                markers: true,
                ..SheetOptions::default()
            },
        )
        .unwrap();
        let pdf = to_pdf(&sheet);
        // Catalog, page tree, info, then a page and a content stream per page, plus entry 0.
        assert_eq!(check_xref(&pdf), 4 + 2 * sheet.pages.len());

        if !(has_tool("pdfinfo") && has_tool("pdftoppm")) {
            println!("note: poppler (pdfinfo, pdftoppm) not installed, PDF not opened");
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tags.pdf");
        std::fs::write(&path, &pdf).unwrap();
        let info = Command::new("pdfinfo").arg(&path).output().unwrap();
        let stderr = String::from_utf8_lossy(&info.stderr);
        assert!(
            info.status.success() && stderr.trim().is_empty(),
            "pdfinfo: {stderr}"
        );
        let info = String::from_utf8_lossy(&info.stdout);
        let field = |name: &str| {
            info.lines()
                .find_map(|l| l.strip_prefix(name))
                .map(|v| v.trim().to_owned())
                .unwrap_or_else(|| panic!("pdfinfo gives no {name}\n{info}"))
        };
        assert_eq!(field("Pages:"), sheet.pages.len().to_string());
        let expected_size = match paper {
            Paper::A4 => "595.276 x 841.89 pts (A4)",
            Paper::Letter => "612 x 792 pts (letter)",
        };
        assert_eq!(field("Page size:"), expected_size);

        // Poppler's rendering of every page reads back the codes placed on it, at their size
        // (on Letter, the first page will do).
        let dpi = 300.0;
        let px_per_mm = dpi / MM_PER_INCH;
        let pages = if paper == Paper::A4 {
            sheet.pages.len()
        } else {
            1
        };
        for page in 0..pages {
            let out = Command::new("pdftoppm")
                .args(["-gray", "-r", "300", "-f", &(page + 1).to_string(), "-l"])
                .arg((page + 1).to_string())
                .arg(&path)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let (w, h, pixels) = read_pgm(&out.stdout);
            let what = format!("poppler, {paper} page {}", page + 1);
            let read = read_back(
                w,
                h,
                |x, y| pixels[y * w + x],
                &sheet.pages[page],
                px_per_mm,
                &what,
            );
            assert_eq!(read, placed_codes(&sheet, page), "{what}");
            for p in &sheet.pages[page].placed {
                let (mw, mh) = measured_symbol_mm(
                    w as u32,
                    h as u32,
                    |x, y| pixels[y as usize * w + x as usize],
                    &p.symbol,
                    p.module_mm,
                    px_per_mm,
                );
                // One pixel at 300 dpi is 0.085 mm; poppler anti-aliases the edges.
                assert!(
                    (mw - p.symbol.w).abs() <= 0.1 + 1.0 / px_per_mm
                        && (mh - p.symbol.h).abs() <= 0.1 + 1.0 / px_per_mm,
                    "{}: poppler draws {mw:.3} × {mh:.3} mm, placed {} mm",
                    p.payload,
                    p.symbol.w
                );
            }
        }
    }
}

#[test]
fn every_demo_card_name_has_its_glyphs_and_a_missing_one_is_boxed_and_reported() {
    for catalogue in catalogues() {
        let copies: Vec<(String, u16)> =
            catalogue.cards.iter().map(|c| (c.id.clone(), 1)).collect();
        for lang in ["ja", "en"] {
            let stickers = stickers_for(&catalogue, &copies, lang, Some("持ち主 owner")).unwrap();
            let sheet = layout(&stickers, &SheetOptions::default()).unwrap();
            let missing: Vec<String> = sheet
                .warnings
                .iter()
                .filter(|w| matches!(w, SheetWarning::MissingGlyphs { .. }))
                .map(ToString::to_string)
                .collect();
            assert!(
                missing.is_empty(),
                "{} ({lang}): {missing:#?}",
                catalogue.set.id
            );
            assert!(sheet.warnings.is_empty(), "{:?}", sheet.warnings);
        }
    }
    let jaken = Catalogue::jaken_demo().unwrap();
    let mut stickers = stickers_for(&jaken, &[("JD01".into(), 1)], "ja", None).unwrap();
    assert_eq!(stickers[0].label, "灯り小僧");
    assert_eq!(stickers[0].sublabel, "JD01 #1");
    stickers[0].label = "灯り\u{E000}小僧".into();
    let sheet = layout(&stickers, &SheetOptions::default()).unwrap();
    assert_eq!(
        sheet.warnings,
        vec![SheetWarning::MissingGlyphs {
            text: "灯り\u{E000}小僧".into(),
            missing: vec!['\u{E000}']
        }]
    );
    assert!(sheet.warnings[0].to_string().contains("U+E000"));
    // The code still reads.
    assert_pages_read_back(&sheet, 300.0, "missing glyph");
    // An unknown card is refused with its id.
    let err = stickers_for(&jaken, &[("NOPE".into(), 1)], "ja", None).unwrap_err();
    assert!(err.to_string().contains("NOPE"), "{err}");
}

#[test]
fn a_long_name_shrinks_to_the_sticker_width() {
    let jaken = Catalogue::jaken_demo().unwrap();
    let mut stickers = stickers_for(&jaken, &[("JD01".into(), 1)], "en", None).unwrap();
    stickers[0].label = "An Extraordinarily Long Card Name".into();
    let sheet = layout(&stickers, &SheetOptions::default()).unwrap();
    let p = &sheet.pages[0].placed[0];
    let img = rasterize(&sheet, 0, 300.0);
    let px_per_mm = 300.0 / MM_PER_INCH;
    // The label band: below the quiet zone, inside the sticker.
    let quiet = QUIET_ZONE_MODULES as f32 * p.module_mm;
    let y0 = ((p.symbol.bottom() + quiet + 0.3) * px_per_mm) as u32;
    let y1 = ((p.sticker.bottom() - 0.3) * px_per_mm) as u32;
    let (x0, x1) = (
        (p.sticker.x * px_per_mm) as u32,
        (p.sticker.right() * px_per_mm) as u32,
    );
    let mut dark_columns = Vec::new();
    for x in 0..img.width() {
        if (y0..y1).any(|y| img.get_pixel(x, y).0[0] == 0) {
            dark_columns.push(x);
        }
    }
    let (first, last) = (dark_columns[0], *dark_columns.last().unwrap());
    assert!(
        first > x0 && last < x1,
        "label {first}..{last} px outside sticker {x0}..{x1}"
    );
    assert!(sheet.warnings.is_empty(), "{:?}", sheet.warnings);
}

#[test]
fn svg_pages_are_millimetre_sized_documents_with_every_code() {
    let catalogue = &catalogues()[0];
    let stickers = deck_stickers(catalogue, 0, "ja");
    let sheet = layout(
        &stickers,
        &SheetOptions {
            markers: true,
            ..SheetOptions::default()
        },
    )
    .unwrap();
    let svgs = to_svg(&sheet);
    assert_eq!(svgs.len(), sheet.pages.len());
    for (svg, page) in svgs.iter().zip(&sheet.pages) {
        assert!(svg.starts_with("<?xml"));
        assert!(svg.contains(r#"width="210mm" height="297mm" viewBox="0 0 210 297""#));
        assert!(svg.trim_end().ends_with("</svg>"));
        for p in &page.placed {
            assert!(svg.contains(&p.payload), "{}", p.payload);
        }
        // A code, a name and a small line per sticker, and its cut line.
        assert_eq!(svg.matches("<path ").count(), 3 * page.placed.len());
        assert_eq!(svg.matches("<rect ").count(), 1 + page.placed.len());
    }
}

/// Not a check: writes the `lantern` deck's sheet (with the marker page) for a person to look at,
/// to `$TABLESIDE_SHEET_DIR` or the temporary directory: `tags-lantern.pdf` and one SVG a page.
/// `cargo test --workspace --test tag_sheet -- --ignored write_the_lantern_sheet --nocapture`
#[test]
#[ignore = "writes files for a person to look at"]
fn write_the_lantern_sheet_for_a_look() {
    let dir = std::env::var_os("TABLESIDE_SHEET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let jaken = Catalogue::jaken_demo().unwrap();
    let deck = jaken.deck("lantern").unwrap();
    let stickers = stickers_for(&jaken, &number_copies(&deck.cards), "ja", Some("alice")).unwrap();
    let sheet = layout(
        &stickers,
        &SheetOptions {
            markers: true,
            ..SheetOptions::default()
        },
    )
    .unwrap();
    let pdf = dir.join("tags-lantern.pdf");
    std::fs::write(&pdf, to_pdf(&sheet)).unwrap();
    println!("wrote {}", pdf.display());
    for (i, svg) in to_svg(&sheet).iter().enumerate() {
        let path = dir.join(format!("tags-lantern-{}.svg", i + 1));
        std::fs::write(&path, svg).unwrap();
        println!("wrote {}", path.display());
    }
    for w in &sheet.warnings {
        println!("warning: {w}");
    }
}
