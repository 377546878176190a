//! Fonts that can draw Japanese card names (灯り小僧) as well as Latin text.
//!
//! egui's default fonts have no CJK glyphs. The window uses, in this order of fallback:
//!
//! 1. egui's default Latin font (Ubuntu-Light; Hack for monospace),
//! 2. a system CJK font when one is installed (Noto Sans CJK, IPA Gothic, Droid Sans Fallback),
//! 3. the embedded subset of Noto Sans CJK JP ([`EMBEDDED_CJK_FONT`], SIL OFL 1.1, see
//!    `app/assets/fonts/OFL.txt`), which covers ASCII, Latin-1, punctuation, kana, the JIS X 0208
//!    level-1 kanji and every character of the card catalogues. It is always there, so a fresh
//!    machine without any CJK font still shows card names. `scripts/make-cjk-font.sh` rebuilds it.
//! 4. egui's emoji and icon fonts.
//!
//! A system font file is checked (its sfnt table directory) before egui sees it, because egui
//! panics on a font it cannot parse.

use egui::{FontData, FontDefinitions, FontFamily};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The embedded Japanese font: a subset of Noto Sans CJK JP Regular (OTF/CFF).
pub const EMBEDDED_CJK_FONT: &[u8] = include_bytes!("../../assets/fonts/NotoSansCJKjp-Subset.otf");

/// Name of the embedded font in egui's font definitions.
pub const EMBEDDED_FONT_NAME: &str = "NotoSansCJKjp-Subset";
/// Name of the system CJK font in egui's font definitions, when one is loaded.
pub const SYSTEM_FONT_NAME: &str = "system-cjk";

/// System fonts tried first, with the face index to use in a collection (`.ttc`).
/// Face 0 of Noto Sans CJK's collection is the Japanese one (Noto Sans CJK JP).
const SYSTEM_FONTS: &[(&str, u32)] = &[
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 0),
    (
        "/usr/share/fonts/opentype/noto/NotoSansCJKjp-Regular.otf",
        0,
    ),
    ("/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc", 0),
    ("/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc", 0),
    ("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf", 0),
    (
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
        0,
    ),
];

/// Folders searched for any other `*CJK*Regular*` font when none of [`SYSTEM_FONTS`] exists.
const SYSTEM_FONT_DIRS: &[&str] = &[
    "/usr/share/fonts/truetype/noto",
    "/usr/share/fonts/opentype/noto",
    "/usr/share/fonts/google-noto-cjk",
];

/// Which fonts to load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FontChoice {
    /// A system CJK font when present, the embedded subset always (the app's default).
    SystemThenEmbedded,
    /// Only the embedded subset (tests use this to prove the subset covers the catalogue).
    EmbeddedOnly,
}

/// What was loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FontReport {
    /// The system CJK font in use, if one was found and passed the check.
    pub system: Option<PathBuf>,
    /// True when the embedded subset is installed (always, unless it failed its own check).
    pub embedded: bool,
}

/// egui's default fonts plus the CJK fallbacks of `choice`.
pub fn font_definitions(choice: FontChoice) -> (FontDefinitions, FontReport) {
    let mut defs = FontDefinitions::default();
    let mut chain: Vec<String> = Vec::new();
    let mut report = FontReport {
        system: None,
        embedded: false,
    };
    if choice == FontChoice::SystemThenEmbedded
        && let Some((path, bytes, index)) = find_system_font()
    {
        defs.font_data.insert(
            SYSTEM_FONT_NAME.to_owned(),
            Arc::new(FontData::from_blob(Arc::new(bytes), index)),
        );
        chain.push(SYSTEM_FONT_NAME.to_owned());
        report.system = Some(path);
    }
    if is_usable_font(EMBEDDED_CJK_FONT, 0) {
        defs.font_data.insert(
            EMBEDDED_FONT_NAME.to_owned(),
            Arc::new(FontData::from_static(EMBEDDED_CJK_FONT)),
        );
        chain.push(EMBEDDED_FONT_NAME.to_owned());
        report.embedded = true;
    }
    for family in [FontFamily::Proportional, FontFamily::Monospace] {
        let list = defs.families.entry(family).or_default();
        // After the Latin fonts, before the emoji and icon fallbacks.
        let at = list
            .iter()
            .position(|name| name == "Ubuntu-Light")
            .map_or(0, |i| i + 1);
        for (offset, name) in chain.iter().enumerate() {
            list.insert((at + offset).min(list.len()), name.clone());
        }
    }
    (defs, report)
}

/// Installs the fonts of `choice` in `ctx`.
pub fn install_fonts(ctx: &egui::Context, choice: FontChoice) -> FontReport {
    let (defs, report) = font_definitions(choice);
    ctx.set_fonts(defs);
    report
}

/// The first system CJK font that exists and passes the check: (path, bytes, face index).
fn find_system_font() -> Option<(PathBuf, Vec<u8>, u32)> {
    let mut candidates: Vec<(PathBuf, u32)> = SYSTEM_FONTS
        .iter()
        .map(|(path, index)| (PathBuf::from(path), *index))
        .collect();
    for dir in SYSTEM_FONT_DIRS {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| is_cjk_regular(p))
            .collect();
        found.sort();
        candidates.extend(found.into_iter().map(|p| (p, 0)));
    }
    candidates.into_iter().find_map(|(path, index)| {
        let bytes = std::fs::read(&path).ok()?;
        is_usable_font(&bytes, index).then_some((path, bytes, index))
    })
}

fn is_cjk_regular(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext_ok = [".ttc", ".otf", ".ttf"]
        .iter()
        .any(|ext| name.ends_with(ext));
    ext_ok && name.contains("CJK") && name.contains("Regular") && !name.contains("Mono")
}

fn be16(bytes: &[u8], at: usize) -> Option<usize> {
    let b = bytes.get(at..at + 2)?;
    Some(usize::from(u16::from_be_bytes([b[0], b[1]])))
}

fn be32(bytes: &[u8], at: usize) -> Option<usize> {
    let b = bytes.get(at..at + 4)?;
    usize::try_from(u32::from_be_bytes([b[0], b[1], b[2], b[3]])).ok()
}

/// Checks that `bytes` is a TrueType/OpenType font (or a collection holding face `index`) whose
/// table directory lies within the file and names a character map and outlines.
pub fn is_usable_font(bytes: &[u8], index: u32) -> bool {
    let face = if bytes.get(0..4) == Some(b"ttcf") {
        let Some(count) = be32(bytes, 8) else {
            return false;
        };
        let index = index as usize;
        if index >= count {
            return false;
        }
        match be32(bytes, 12 + 4 * index) {
            Some(offset) => offset,
            None => return false,
        }
    } else if index == 0 {
        0
    } else {
        return false;
    };
    let Some(version) = bytes.get(face..face + 4) else {
        return false;
    };
    if !matches!(version, [0, 1, 0, 0] | b"OTTO" | b"true") {
        return false;
    }
    let Some(tables) = be16(bytes, face + 4) else {
        return false;
    };
    let mut has_cmap = false;
    let mut has_outlines = false;
    for i in 0..tables {
        let record = face + 12 + 16 * i;
        let (Some(tag), Some(offset), Some(length)) = (
            bytes.get(record..record + 4),
            be32(bytes, record + 8),
            be32(bytes, record + 12),
        ) else {
            return false;
        };
        if offset
            .checked_add(length)
            .is_none_or(|end| end > bytes.len())
        {
            return false;
        }
        has_cmap |= tag == b"cmap";
        has_outlines |= matches!(tag, b"glyf" | b"CFF " | b"CFF2");
    }
    has_cmap && has_outlines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_font_passes_the_check() {
        assert!(is_usable_font(EMBEDDED_CJK_FONT, 0));
        assert!(
            EMBEDDED_CJK_FONT.len() < 3_500_000,
            "the subset grew to {} bytes",
            EMBEDDED_CJK_FONT.len()
        );
    }

    #[test]
    fn truncated_or_foreign_files_are_refused() {
        let half = &EMBEDDED_CJK_FONT[..EMBEDDED_CJK_FONT.len() / 2];
        assert!(!is_usable_font(half, 0));
        assert!(!is_usable_font(b"SQLite format 3\0 and so on", 0));
        assert!(!is_usable_font(&[], 0));
        // A single font has no face 1.
        assert!(!is_usable_font(EMBEDDED_CJK_FONT, 1));
    }

    #[test]
    fn a_collection_face_index_is_checked() {
        // A collection of one face that points at the embedded font, appended after the header.
        let mut ttc = b"ttcf\x00\x01\x00\x00\x00\x00\x00\x01".to_vec();
        ttc.extend_from_slice(&16u32.to_be_bytes());
        // A collection's table offsets count from the start of the file, so the embedded font's
        // offsets now point 16 bytes early: still inside the file, all this check looks at.
        ttc.extend_from_slice(EMBEDDED_CJK_FONT);
        assert!(is_usable_font(&ttc, 0));
        assert!(!is_usable_font(&ttc, 1));
    }

    #[test]
    fn embedded_only_installs_the_subset_after_the_latin_font() {
        let (defs, report) = font_definitions(FontChoice::EmbeddedOnly);
        assert_eq!(
            report,
            FontReport {
                system: None,
                embedded: true
            }
        );
        let chain = &defs.families[&FontFamily::Proportional];
        assert_eq!(chain.first().map(String::as_str), Some("Ubuntu-Light"));
        assert_eq!(chain.get(1).map(String::as_str), Some(EMBEDDED_FONT_NAME));
    }
}
