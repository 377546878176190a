//! `tableside tags` as a player runs it: a PDF (or SVG pages) with a sticker per physical copy.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::{Command, Output};

fn tableside(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tableside"))
        .current_dir(dir)
        .arg("--data-dir")
        .arg(dir)
        .args(args)
        .env_remove("TABLESIDE_DATA_DIR")
        .output()
        .expect("run tableside")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Number of `/Type /Page` objects (not `/Pages`) in a PDF.
fn pdf_pages(pdf: &[u8]) -> usize {
    let s = String::from_utf8_lossy(pdf);
    s.matches("/Type /Page").count() - s.matches("/Type /Pages").count()
}

#[test]
fn a_demo_deck_gets_one_sticker_per_copy_and_the_corner_markers() {
    let dir = tempfile::tempdir().unwrap();
    let out = tableside(
        dir.path(),
        &["tags", "--demo", "jaken/lantern", "--out", "l.pdf"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.starts_with("15 stickers (36 mm codes) and the 4 mat corner markers"),
        "{said}"
    );
    let pdf = std::fs::read(dir.path().join("l.pdf")).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    // 15 stickers of 12 per A4 page, then the marker page.
    assert_eq!(pdf_pages(&pdf), 3, "{said}");
    assert!(
        text(&out.stderr).is_empty(),
        "no warning expected: {}",
        text(&out.stderr)
    );
}

#[test]
fn a_whole_demo_set_prints_one_tag_per_physical_card_and_says_how_to_stick_them() {
    let dir = tempfile::tempdir().unwrap();
    // Jaken's three decks share cards: 45 stickers, each its own copy.
    let out = tableside(dir.path(), &["tags", "--demo", "jaken", "--out", "j.svg"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.starts_with("45 stickers (36 mm codes)"), "{said}");
    let mut payloads = Vec::new();
    for page in 1.. {
        let Ok(svg) = std::fs::read_to_string(dir.path().join(format!("j-{page}.svg"))) else {
            break;
        };
        // Each code is named in a comment: `<!-- TS1:J:JD01:1:I · label · sublabel -->`.
        for part in svg.split("<!-- TS1:J:").skip(1) {
            let end = part.find(" · ").unwrap();
            payloads.push(part[..end].to_owned());
        }
    }
    let distinct: std::collections::BTreeSet<&String> = payloads.iter().collect();
    assert_eq!(payloads.len(), 45, "{payloads:?}");
    assert_eq!(distinct.len(), 45, "{payloads:?}");
    // The code, its width with the quiet zone and the card offset, in both languages.
    assert!(
        said.contains("version 1 (21 modules of 1.71 mm), 49.7 mm wide")
            && said.contains("--card-offset-mm 15.1")
            && said.contains("バージョン1"),
        "{said}"
    );
    let tide_at = |tag_mm: &str| {
        tableside(
            dir.path(),
            &[
                "tags",
                "--demo",
                "jaken/tide",
                "--tag-mm",
                tag_mm,
                "--out",
                "t.pdf",
            ],
        )
    };
    // The 1280 × 720 size fits a card: no warning.
    let out = tide_at("44");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("60.8 mm wide"),
        "{}",
        text(&out.stdout)
    );
    // 55 mm does not: warned in both languages.
    let out = tide_at("55");
    let err = text(&out.stderr);
    assert!(
        err.contains("larger than a 63 × 88 mm card") && err.contains("カードより大きく"),
        "{err}"
    );
}

#[test]
fn every_games_demo_decks_print() {
    let dir = tempfile::tempdir().unwrap();
    for game in ["jaken", "junk-ken", "rockman-exe", "space-junk", "yomi"] {
        let file = format!("{game}.pdf");
        let out = tableside(
            dir.path(),
            &["tags", "--demo", game, "--no-markers", "--out", &file],
        );
        assert!(out.status.success(), "{game}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).is_empty(),
            "{game}: {}",
            text(&out.stderr)
        );
        let pdf = std::fs::read(dir.path().join(&file)).unwrap();
        assert!(pdf_pages(&pdf) >= 1, "{game}");
    }
}

#[test]
fn a_deck_file_prints_as_svg_pages_with_the_owner() {
    let dir = tempfile::tempdir().unwrap();
    let deck =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/examples/decks/jaken-ben-gale.toml");
    let out = tableside(
        dir.path(),
        &[
            "tags",
            "--deck",
            deck.to_str().unwrap(),
            "--lang",
            "en",
            "--out",
            "gale.svg",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page1 = std::fs::read_to_string(dir.path().join("gale-1.svg")).unwrap();
    assert!(
        page1.starts_with("<?xml") || page1.starts_with("<svg"),
        "{}",
        &page1[..80]
    );
    assert!(
        dir.path().join("gale-3.svg").exists(),
        "{}",
        text(&out.stdout)
    );
    assert!(!dir.path().join("gale-4.svg").exists());
}

#[test]
fn bad_requests_are_refused_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["tags", "--demo", "chess"], "unknown game `chess`"),
        (&["tags", "--demo", "jaken/nope"], "has no deck `nope`"),
        (
            &["tags", "--demo", "jaken/lantern", "--paper", "a3"],
            "unknown paper",
        ),
        (
            &["tags", "--demo", "jaken/lantern", "--tag-mm", "2"],
            "outside",
        ),
        (&["tags"], "say which stickers to print"),
    ];
    for (args, expected) in cases {
        let out = tableside(dir.path(), args);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            text(&out.stderr).contains(expected),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    let out = tableside(dir.path(), &["tags", "--markers-only", "--out", "m.pdf"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let pdf = std::fs::read(dir.path().join("m.pdf")).unwrap();
    assert_eq!(pdf_pages(&pdf), 1);
}
