//! The printable tag sheet: a QR sticker for every physical card of a deck, and the four mat
//! corner markers, as PDF or SVG (and as a raster for tests and previews).
//!
//! ```no_run
//! use cards::catalogue::Catalogue;
//! use tableside::sheet::{layout, number_copies, stickers_for, to_pdf, SheetOptions};
//! let catalogue = Catalogue::jaken_demo()?;
//! let deck = catalogue.deck("lantern").ok_or_else(|| anyhow::anyhow!("no deck"))?;
//! let stickers = stickers_for(&catalogue, &number_copies(&deck.cards), "ja", Some("alice"))?;
//! let sheet = layout(&stickers, &SheetOptions { markers: true, ..SheetOptions::default() })?;
//! for warning in &sheet.warnings {
//!     eprintln!("warning: {warning}");
//! }
//! std::fs::write("lantern-tags.pdf", to_pdf(&sheet))?;
//! # Ok::<(), anyhow::Error>(())
//! ```
//!
//! # What is printed
//!
//! A **sticker** is cut out along its thin grey border and stuck on a card. From the top: the QR
//! code of the card's tag ([`cards::tags::Tag::encode`], e.g. `TS1:J:JD07:2:P`) inside its
//! quiet zone of 4 modules, the card's name in the chosen language (Japanese names are drawn
//! from the app's embedded Noto Sans CJK JP subset), and a small line with the card id, the copy
//! number and the owner (`JD07 #2 · alice`). A name too long for the sticker is set smaller.
//!
//! Every tag of a sheet is the same code: a **version-1** QR code (21 × 21 modules) at error
//! correction level **Q** (a quarter of the code words can be lost) when every tag of the
//! sheet fits one — every tag of up to 16 characters, which is every tag of the demo sets
//! (`TS1:J:JD07:2:P`) — else version 1 at level M (15 %; 20 characters), else **version 2**
//! (25 × 25) at level Q, which holds every tag ([`cards::tags::MAX_CARD_ID`]), with a
//! [`SheetWarning::Version2`]. So every code of a sheet has one module size, which is what the
//! camera arithmetic below is about. The mat corner markers are version 2 at level Q (the mat
//! layouts' marker margins count 25 modules).
//!
//! The optional **marker page** holds the four mat corner markers ([`Corner::ALL`]), by default
//! 50 mm wide, each labelled with its corner (top left, …) and placed in that corner of the page
//! grid, with the same quiet zone.
//!
//! # Sizes
//!
//! `tag_mm` ([`SheetOptions::tag_mm`]) is the width of the QR symbol without its quiet zone. The
//! camera must see about 4 px per module for `rqrr` to read it (see `DESIGN.md`, "Tags and the
//! mat"); over a 700 mm mat, with version-1 codes ([`RECOMMENDED_TAG_MM`]):
//!
//! | camera      | px/mm | `tag_mm`                | module  | px/module | with quiet zone | sticker (w × h) | card offset |
//! |-------------|-------|-------------------------|---------|-----------|-----------------|-----------------|-------------|
//! | 1280 × 720  | 1.83  | 44 ([`TAG_MM_720P`])    | 2.10 mm | 3.8       | 60.8 mm         | 60.8 × 71.5 mm  | 9.6 mm      |
//! | 1920 × 1080 | 2.74  | 36 ([`DEFAULT_TAG_MM`]) | 1.71 mm | 4.7       | 49.7 mm         | 49.7 × 58.7 mm  | 15.1 mm     |
//! | 4K / 12 MP  | 5.49  | 18 ([`TAG_MM_4K`])      | 0.86 mm | 4.7       | 24.9 mm         | 30.0 × 31.5 mm  | 27.6 mm     |
//!
//! Every one fits a 63 × 88 mm card with its quiet zone (4 modules a side). A sheet of
//! version-2 codes at the same `tag_mm` has modules 16 % smaller (36 mm: 1.44 mm, 47.5 × 56.5 mm,
//! offset 16.2 mm; 44 mm: 1.76 mm, only 3.2 px a module at 720p). A sticker is at least
//! [`MIN_STICKER_WIDTH_MM`] wide so its labels stay readable; the labels add about 9 mm below
//! the code. A sticker larger than a card is still laid out, with a
//! [`SheetWarning::LargerThanCard`].
//!
//! **Sticking them on.** Each sticker goes centred across its card, its top edge
//! [`STICKER_TOP_MM`] (4 mm) below the card's top edge. The tag's centre then lies the *card
//! offset* above the card's centre (towards the tag's top): half the card's height, less 4 mm,
//! the quiet zone and half the code ([`tag_measures`]). `tableside track --card-offset-mm` takes
//! it, so a card is placed on the mat by its centre, not its tag's; `tableside tags` prints it
//! for the sheet it writes.
//!
//! **One tag per physical card.** Two stickers of one sheet never name the same copy: a
//! sheet with a repeated copy is refused ([`SheetError::Repeated`]), and `tableside tags`
//! refuses a copy in two of the decks it prints. The demo sets' ready-made decks number a
//! card's copies on from the set's lists before them
//! ([`cards::decks::Deck::from_list`]), so `tableside tags --demo jaken` prints one tag per
//! physical card of the set.
//!
//! # Pages
//!
//! Stickers are laid out in a grid on A4 (default) or US Letter ([`Paper`]) with margins of at
//! least [`MIN_MARGIN_MM`], the grid centred on the page; neighbouring stickers share their cut
//! lines. As many as fit go on a page, and as many pages as needed follow; the marker page, when
//! asked for, comes last. At 36 mm (version 1), A4 and Letter hold 3 × 4 = 12 stickers.
//!
//! To check a printed sheet, scan one sticker at a time: `rqrr` 0.11, given a whole page, groups
//! the finder patterns of neighbouring codes that line up on the grid into phantom codes and
//! reads only a few of the real ones (`app/tests/tag_sheet.rs` reads each sticker's area).
//!
//! # Output
//!
//! - [`to_pdf`]: one PDF document (PDF 1.4, one compressed content stream per page, page
//!   coordinates in millimetres through a single `cm`; the labels are filled outlines, so no
//!   font is embedded).
//! - [`to_svg`]: one SVG document per page, sized in millimetres (`viewBox` in mm).
//! - [`rasterize`]: a page as a greyscale image, for tests and previews.
//!
//! Nothing is silently wrong: a character the font lacks is drawn as an empty box and listed in
//! [`Sheet::warnings`] ([`SheetWarning::MissingGlyphs`]).

mod font;
mod pdf;
mod raster;
mod svg;

pub use pdf::to_pdf;
pub use raster::{MAX_DPI, rasterize};
pub use svg::to_svg;

use cards::catalogue::Catalogue;
use cards::tags::{Corner, Tag, TagError};
use font::{ASCENT_EM, DESCENT_EM, Font};
use qrcode::{Color, EcLevel, QrCode, Version};
use std::fmt;

/// Millimetres per inch.
pub const MM_PER_INCH: f32 = 25.4;
/// The QR version of the mat corner markers, and of the card tags of a sheet whose tags do
/// not all fit version 1 ([`hardware::vision::render::TAG_CODES`]).
pub const QR_VERSION: i16 = 2;
/// Modules across a version-2 code.
pub const QR_MODULES: usize = 25;
/// Modules across a version-1 code: the card tags of a sheet whose tags all fit one (every tag
/// of up to 16 characters at level Q, 20 at level M).
pub const QR_V1_MODULES: usize = 21;
/// The quiet zone around every code, in modules.
pub const QUIET_ZONE_MODULES: usize = 4;
/// A card's size (width, height) in mm.
pub const CARD_MM: (f32, f32) = (63.0, 88.0);
/// Default QR symbol width: for a 1920 × 1080 camera over a 700 mm mat.
pub const DEFAULT_TAG_MM: f32 = 36.0;
/// QR symbol width for a 1280 × 720 camera over a 700 mm mat: a version-1 code of 2.1 mm
/// modules, 60.8 mm wide with its quiet zone, so it fits a 63 mm card.
pub const TAG_MM_720P: f32 = 44.0;
/// QR symbol width for a 4K or 12 MP camera over a 700 mm mat.
pub const TAG_MM_4K: f32 = 18.0;
/// The recommended code width per camera over a 700 mm mat: (camera, `tag_mm`).
pub const RECOMMENDED_TAG_MM: [(&str, f32); 3] = [
    ("1280×720", TAG_MM_720P),
    ("1920×1080", DEFAULT_TAG_MM),
    ("4K / 12 MP", TAG_MM_4K),
];
/// Where a sticker goes on its card: centred across it, its top edge this far (mm) below the
/// card's top edge.
pub const STICKER_TOP_MM: f32 = 4.0;
/// Default width of a mat corner marker's QR symbol.
pub const DEFAULT_MARKER_MM: f32 = 50.0;
/// Smallest and largest QR symbol widths accepted, in mm.
pub const TAG_MM_RANGE: (f32, f32) = (5.0, 180.0);
/// The least page margin, in mm.
pub const MIN_MARGIN_MM: f32 = 10.0;
/// The least sticker width, in mm, so that small tags keep readable labels.
pub const MIN_STICKER_WIDTH_MM: f32 = 30.0;
/// Width of the cut lines, in mm.
pub const CUT_LINE_MM: f32 = 0.2;
/// Grey level of the cut lines (0 black, 1 white).
pub const CUT_LINE_GRAY: f32 = 0.55;

/// The paper size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Paper {
    /// ISO A4, 210 × 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 × 11 in (215.9 × 279.4 mm).
    Letter,
}

impl Paper {
    /// (width, height) in mm.
    pub fn size_mm(self) -> (f32, f32) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }

    /// (width, height) in PDF points (1/72 in), e.g. A4 595.28 × 841.89.
    pub fn size_pt(self) -> (f32, f32) {
        let (w, h) = self.size_mm();
        (w / MM_PER_INCH * 72.0, h / MM_PER_INCH * 72.0)
    }
}

impl fmt::Display for Paper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Paper::A4 => "A4",
            Paper::Letter => "Letter",
        })
    }
}

impl std::str::FromStr for Paper {
    type Err = String;

    /// `a4` or `letter` (any case).
    fn from_str(s: &str) -> Result<Paper, String> {
        match s.to_ascii_lowercase().as_str() {
            "a4" => Ok(Paper::A4),
            "letter" | "us-letter" => Ok(Paper::Letter),
            _ => Err(format!("unknown paper `{s}` (a4 or letter)")),
        }
    }
}

/// One card's sticker: its tag and what is printed under the code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sticker {
    /// The physical copy the code names.
    pub tag: Tag,
    /// The card's name in the chosen language.
    pub label: String,
    /// The small line under the name, e.g. `JD07 #2 · alice`.
    pub sublabel: String,
}

/// How the sheet is laid out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SheetOptions {
    /// Width of a card's QR symbol without its quiet zone, in mm (default [`DEFAULT_TAG_MM`]).
    pub tag_mm: f32,
    /// The paper (default A4).
    pub paper: Paper,
    /// Add a page with the four mat corner markers (default no).
    pub markers: bool,
    /// Width of a corner marker's QR symbol without its quiet zone, in mm (default
    /// [`DEFAULT_MARKER_MM`]).
    pub marker_mm: f32,
}

impl Default for SheetOptions {
    fn default() -> SheetOptions {
        SheetOptions {
            tag_mm: DEFAULT_TAG_MM,
            paper: Paper::A4,
            markers: false,
            marker_mm: DEFAULT_MARKER_MM,
        }
    }
}

/// A rectangle in page millimetres: top-left corner, origin at the page's top left, y down.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
}

impl Rect {
    /// Right edge.
    pub fn right(&self) -> f32 {
        self.x + self.w
    }

    /// Bottom edge.
    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }

    /// True when `other` lies within this rectangle (to `tolerance` mm).
    pub fn contains(&self, other: &Rect, tolerance: f32) -> bool {
        other.x >= self.x - tolerance
            && other.y >= self.y - tolerance
            && other.right() <= self.right() + tolerance
            && other.bottom() <= self.bottom() + tolerance
    }
}

/// A point in page millimetres (y down).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pt {
    /// Distance from the left edge.
    pub x: f32,
    /// Distance from the top edge.
    pub y: f32,
}

/// A path segment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Seg {
    /// Starts a contour.
    Move(Pt),
    /// A straight line to the point.
    Line(Pt),
    /// A cubic Bézier curve: two control points and the end point.
    Cubic(Pt, Pt, Pt),
    /// Closes the contour.
    Close,
}

/// What is drawn on a page. Fills are black.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Filled rectangles as one shape (a QR code's dark modules, merged into runs along rows).
    FillRects(Vec<Rect>),
    /// A filled path, non-zero winding (a line of label text).
    FillPath(Vec<Seg>),
    /// A rectangle's outline (a cut line, or the box of a missing glyph).
    StrokeRect {
        /// The rectangle; the stroke is centred on its edges.
        rect: Rect,
        /// Line width, mm.
        width_mm: f32,
        /// Grey level, 0 black … 1 white.
        gray: f32,
    },
}

/// What a printed code names.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// A card's physical copy.
    Card(Tag),
    /// A mat corner.
    Corner(Corner),
}

/// A code placed on a page.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    /// What the code names.
    pub code: Code,
    /// The text in the QR code.
    pub payload: String,
    /// The sticker: its cut line.
    pub sticker: Rect,
    /// The QR symbol without its quiet zone.
    pub symbol: Rect,
    /// One module's width, mm.
    pub module_mm: f32,
    /// Modules across the code (21 for version 1, 25 for version 2).
    pub modules: usize,
    /// The code's quiet zone, mm a side (4 modules).
    pub quiet_mm: f32,
    /// The label as printed.
    pub label: String,
    /// The small line as printed.
    pub sublabel: String,
}

/// One page of the sheet.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    /// Page width, mm.
    pub width_mm: f32,
    /// Page height, mm.
    pub height_mm: f32,
    /// The codes on the page, in reading order.
    pub placed: Vec<Placed>,
    /// Everything drawn on the page.
    pub shapes: Vec<Shape>,
}

/// Something the user should know about a sheet that was still laid out.
#[derive(Clone, Debug, PartialEq)]
pub enum SheetWarning {
    /// The font has no glyph for these characters: each is printed as an empty box.
    MissingGlyphs {
        /// The label.
        text: String,
        /// The characters without a glyph.
        missing: Vec<char>,
    },
    /// A sticker is larger than a 63 × 88 mm card.
    LargerThanCard {
        /// Sticker width, mm.
        width_mm: f32,
        /// Sticker height, mm.
        height_mm: f32,
    },
    /// A tag is too long for a version-1 code: every tag of the sheet is a version-2 code,
    /// whose modules are smaller at the same printed size (21/25).
    Version2 {
        /// The longest tag.
        longest: String,
    },
    /// A label had to be set so small it may not be readable.
    TinyLabel {
        /// The label.
        text: String,
        /// Its em size, mm.
        em_mm: f32,
    },
}

impl SheetWarning {
    /// The warning in Japanese.
    pub fn ja(&self) -> String {
        match self {
            SheetWarning::MissingGlyphs { text, missing } => {
                let list: Vec<String> = missing
                    .iter()
                    .map(|c| format!("`{c}` (U+{:04X})", u32::from(*c)))
                    .collect();
                format!(
                    "ラベル `{text}` にはフォントで描けない文字があり、四角で印刷されます: {}",
                    list.join(", ")
                )
            }
            SheetWarning::LargerThanCard {
                width_mm,
                height_mm,
            } => format!(
                "シールが {width_mm:.1} × {height_mm:.1} mm あり、{} × {} mm のカードより大きくなります",
                CARD_MM.0, CARD_MM.1
            ),
            SheetWarning::TinyLabel { text, em_mm } => format!(
                "ラベル `{text}` はシールに収まらないため {em_mm:.1} mm の文字で印刷されます"
            ),
            SheetWarning::Version2 { longest } => format!(
                "タグ `{longest}`（{} 文字）はバージョン1のコードに収まらないため、このシートのタグは\
                 すべてバージョン2になります。同じ大きさではモジュールが 16 % 小さくなります\
                 （カード ID を短くするとバージョン1に収まります）",
                longest.chars().count()
            ),
        }
    }
}

impl fmt::Display for SheetWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SheetWarning::MissingGlyphs { text, missing } => {
                let list: Vec<String> = missing
                    .iter()
                    .map(|c| format!("`{c}` (U+{:04X})", u32::from(*c)))
                    .collect();
                write!(
                    f,
                    "the label `{text}` has characters the font cannot draw, printed as boxes: {}",
                    list.join(", ")
                )
            }
            SheetWarning::LargerThanCard {
                width_mm,
                height_mm,
            } => write!(
                f,
                "a sticker is {width_mm:.1} × {height_mm:.1} mm, larger than a {} × {} mm card",
                CARD_MM.0, CARD_MM.1
            ),
            SheetWarning::TinyLabel { text, em_mm } => write!(
                f,
                "the label `{text}` is too long for its sticker and is set at {em_mm:.1} mm"
            ),
            SheetWarning::Version2 { longest } => write!(
                f,
                "the tag `{longest}` ({} characters) is too long for a version-1 code, so every \
                 tag of this sheet is a version-2 code: its modules are 16 % smaller at the same \
                 size (shorter card ids fit version 1)",
                longest.chars().count()
            ),
        }
    }
}

/// A laid-out sheet: pages of positioned codes and shapes in millimetres.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    /// The paper.
    pub paper: Paper,
    /// The pages: the stickers, then the marker page if asked for.
    pub pages: Vec<Page>,
    /// What the user should know (missing glyphs, oversize stickers), each once.
    pub warnings: Vec<SheetWarning>,
}

/// Why a sheet cannot be laid out.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SheetError {
    /// The tag or marker size is not a number in [`TAG_MM_RANGE`].
    #[error("a code size of {0} mm is outside {min}–{max} mm", min = TAG_MM_RANGE.0, max = TAG_MM_RANGE.1)]
    Size(f32),
    /// A sticker's tag cannot be encoded.
    #[error("card `{card}` copy {copy}: {source}")]
    Tag {
        /// The card id.
        card: String,
        /// The copy.
        copy: u16,
        /// Why.
        source: TagError,
    },
    /// A payload does not fit the sheet's code.
    #[error("`{payload}` does not fit the sheet's QR code: {reason}")]
    Qr {
        /// The text.
        payload: String,
        /// The encoder's reason.
        reason: String,
    },
    /// A sticker is larger than the paper within its margins.
    #[error(
        "a {width_mm:.1} × {height_mm:.1} mm sticker does not fit on {paper} paper within {MIN_MARGIN_MM} mm margins"
    )]
    TooLarge {
        /// Sticker width, mm.
        width_mm: f32,
        /// Sticker height, mm.
        height_mm: f32,
        /// The paper.
        paper: Paper,
    },
    /// No stickers and no marker page.
    #[error("nothing to print: no cards and no corner markers")]
    Empty,
    /// Two stickers of the sheet name the same physical copy: two cards would share one
    /// identity.
    #[error(
        "{card} #{copy} is on the sheet {count} times: one physical card, one tag (number the copies of a card apart)"
    )]
    Repeated {
        /// The card id.
        card: String,
        /// The copy.
        copy: u16,
        /// How many times.
        count: usize,
    },
    /// The embedded font cannot be read (a broken build).
    #[error("the embedded label font cannot be read")]
    Font,
    /// A card id is not in the catalogue.
    #[error("card `{card}` is not in the catalogue `{set}`")]
    UnknownCard {
        /// The card id.
        card: String,
        /// The catalogue's set id.
        set: String,
    },
}

/// Numbers the copies of each card 1, 2, … in the order they are listed (a deck list names one
/// card id per physical copy): `[A, B, A]` → `[(A, 1), (B, 1), (A, 2)]`.
pub fn number_copies(card_ids: &[String]) -> Vec<(String, u16)> {
    let mut seen: std::collections::HashMap<&str, u16> = std::collections::HashMap::new();
    card_ids
        .iter()
        .map(|id| {
            let n = seen.entry(id.as_str()).or_insert(0);
            *n = n.saturating_add(1);
            (id.clone(), *n)
        })
        .collect()
}

/// The stickers for `copies` (card id, copy number) of `catalogue`'s cards, labelled in `lang`
/// (`ja` for Japanese names, anything else for English), the small line naming the card id, the
/// copy and `owner` when given (`JD07 #2 · alice`).
pub fn stickers_for(
    catalogue: &Catalogue,
    copies: &[(String, u16)],
    lang: &str,
    owner: Option<&str>,
) -> Result<Vec<Sticker>, SheetError> {
    copies
        .iter()
        .map(|(id, copy)| {
            let card = catalogue.card(id).ok_or_else(|| SheetError::UnknownCard {
                card: id.clone(),
                set: catalogue.set.id.clone(),
            })?;
            let mut sublabel = format!("{id} #{copy}");
            if let Some(owner) = owner.map(str::trim).filter(|o| !o.is_empty()) {
                sublabel.push_str(" · ");
                sublabel.push_str(owner);
            }
            Ok(Sticker {
                tag: Tag {
                    game: catalogue.game,
                    card: id.clone(),
                    copy: *copy,
                },
                label: card.name(lang).to_owned(),
                sublabel,
            })
        })
        .collect()
}

/// The measures of one sticker, in mm, relative to its top-left corner.
#[derive(Clone, Copy, Debug)]
struct Geometry {
    tag: f32,
    module: f32,
    modules: usize,
    version: i16,
    level: EcLevel,
    /// The symbol with its quiet zone.
    outer: f32,
    w: f32,
    h: f32,
    name_em: f32,
    sub_em: f32,
    pad_x: f32,
}

impl Geometry {
    fn new(tag: f32, modules: usize) -> Geometry {
        let module = tag / modules as f32;
        let outer = tag + 2.0 * QUIET_ZONE_MODULES as f32 * module;
        let name_em = (0.13 * tag).clamp(3.0, 6.0);
        let sub_em = (0.55 * name_em).max(2.2);
        let bottom_pad = (0.3 * sub_em).max(1.0);
        Geometry {
            tag,
            module,
            modules,
            version: if modules == QR_V1_MODULES {
                1
            } else {
                QR_VERSION
            },
            level: EcLevel::Q,
            outer,
            w: outer.max(MIN_STICKER_WIDTH_MM),
            h: outer + 1.15 * name_em + (ASCENT_EM + DESCENT_EM) * sub_em + bottom_pad,
            name_em,
            sub_em,
            pad_x: module.max(1.0),
        }
    }
}

/// A grid of equal cells on a page.
struct Grid {
    cols: usize,
    rows: usize,
    left: f32,
    top: f32,
}

impl Grid {
    fn fit(paper: Paper, w: f32, h: f32) -> Option<Grid> {
        let (pw, ph) = paper.size_mm();
        // A hair of tolerance so a grid that fits exactly is not lost to rounding.
        let cols = ((pw - 2.0 * MIN_MARGIN_MM + 1e-3) / w).floor();
        let rows = ((ph - 2.0 * MIN_MARGIN_MM + 1e-3) / h).floor();
        if !(cols >= 1.0 && rows >= 1.0) {
            return None;
        }
        Some(Grid {
            cols: cols as usize,
            rows: rows as usize,
            left: ((pw - cols * w) / 2.0).max(MIN_MARGIN_MM),
            top: ((ph - rows * h) / 2.0).max(MIN_MARGIN_MM),
        })
    }

    fn per_page(&self) -> usize {
        self.cols * self.rows
    }
}

/// What to place in one grid cell.
struct Item<'a> {
    code: Code,
    label: &'a str,
    sublabel: String,
}

/// The code every tag of `stickers` is printed as, `tag_mm` wide: the first of
/// [`hardware::vision::render::TAG_CODES`] that holds them all.
fn tag_geometry(stickers: &[Sticker], tag_mm: f32) -> Result<Geometry, SheetError> {
    let mut payloads = Vec::with_capacity(stickers.len());
    for st in stickers {
        payloads.push(st.tag.encode().map_err(|source| SheetError::Tag {
            card: st.tag.card.clone(),
            copy: st.tag.copy,
            source,
        })?);
    }
    let (version, level) = hardware::vision::render::tag_code_for(
        payloads.iter().map(String::as_str),
    )
    .ok_or_else(|| SheetError::Qr {
        payload: payloads
            .iter()
            .max_by_key(|p| p.len())
            .cloned()
            .unwrap_or_default(),
        reason: "longer than any tag code holds".into(),
    })?;
    let modules = 17 + 4 * usize::try_from(version).unwrap_or(2);
    let mut geo = Geometry::new(tag_mm, modules);
    geo.version = version;
    geo.level = level;
    Ok(geo)
}

/// The code width, sticker width and card offset of a sheet of tags `tag_mm` wide whose tags
/// all fit a version-1 code (`v1`) or not: (modules across, sticker width mm, card offset mm).
/// The card offset is from the tag's centre to the card's centre when the sticker is stuck as
/// [`STICKER_TOP_MM`] says: the value for `tableside track --card-offset-mm`.
pub fn tag_measures(tag_mm: f32, v1: bool) -> (usize, f32, f32) {
    let modules = if v1 { QR_V1_MODULES } else { QR_MODULES };
    let geo = Geometry::new(tag_mm, modules);
    let offset = CARD_MM.1 / 2.0 - STICKER_TOP_MM - (geo.outer - geo.tag) / 2.0 - geo.tag / 2.0;
    (modules, geo.w, offset)
}

/// Lays out the stickers (and the corner markers if `opts.markers`), as many per page as fit.
///
/// The tags of a sheet are all one code (version 1 when every tag fits it, as every tag of
/// the demo sets does; else version 2), so all have one module size.
///
/// # Errors
/// [`SheetError::Repeated`] when two stickers name one physical copy; a size out of range, a
/// tag that does not encode, a sticker larger than the paper.
pub fn layout(stickers: &[Sticker], opts: &SheetOptions) -> Result<Sheet, SheetError> {
    for size in [opts.tag_mm, opts.marker_mm] {
        if !(TAG_MM_RANGE.0..=TAG_MM_RANGE.1).contains(&size) {
            return Err(SheetError::Size(size));
        }
    }
    if stickers.is_empty() && !opts.markers {
        return Err(SheetError::Empty);
    }
    let font = Font::parse(crate::ui::EMBEDDED_CJK_FONT).ok_or(SheetError::Font)?;
    let mut sheet = Sheet {
        paper: opts.paper,
        pages: Vec::new(),
        warnings: Vec::new(),
    };
    // One physical card, one tag: a copy printed twice would be two cards with one identity.
    let mut counts: std::collections::BTreeMap<(&str, u16), usize> =
        std::collections::BTreeMap::new();
    for st in stickers {
        *counts
            .entry((st.tag.card.as_str(), st.tag.copy))
            .or_default() += 1;
    }
    if let Some(((card, copy), count)) = counts.into_iter().find(|(_, n)| *n > 1) {
        return Err(SheetError::Repeated {
            card: card.to_owned(),
            copy,
            count,
        });
    }
    if !stickers.is_empty() {
        let items: Vec<Item<'_>> = stickers
            .iter()
            .map(|s| Item {
                code: Code::Card(s.tag.clone()),
                label: &s.label,
                sublabel: s.sublabel.clone(),
            })
            .collect();
        let geo = tag_geometry(stickers, opts.tag_mm)?;
        if geo.version > 1
            && let Some(longest) = stickers
                .iter()
                .filter_map(|s| s.tag.encode().ok())
                .max_by_key(|t| (t.len(), t.clone()))
        {
            sheet.warnings.push(SheetWarning::Version2 { longest });
        }
        if geo.w > CARD_MM.0 || geo.h > CARD_MM.1 {
            sheet.warnings.push(SheetWarning::LargerThanCard {
                width_mm: geo.w,
                height_mm: geo.h,
            });
        }
        lay_pages(&mut sheet, &font, &items, geo, false)?;
    }
    if opts.markers {
        // In reading order, so that a grid of two columns puts each marker in its own corner.
        let order = [
            Corner::TopLeft,
            Corner::TopRight,
            Corner::BottomLeft,
            Corner::BottomRight,
        ];
        let items: Vec<Item<'_>> = order
            .into_iter()
            .map(|c| Item {
                code: Code::Corner(c),
                label: c.label(),
                sublabel: format!("mat corner marker {}", c.code()),
            })
            .collect();
        lay_pages(
            &mut sheet,
            &font,
            &items,
            Geometry::new(opts.marker_mm, QR_MODULES),
            true,
        )?;
    }
    let mut unique: Vec<SheetWarning> = Vec::new();
    for w in sheet.warnings.drain(..) {
        if !unique.contains(&w) {
            unique.push(w);
        }
    }
    sheet.warnings = unique;
    Ok(sheet)
}

/// Lays `items` out in pages of `geo`-sized cells. Sticker pages keep the full grid's position
/// on every page (`center_used` false); the marker page centres the cells it uses.
fn lay_pages(
    sheet: &mut Sheet,
    font: &Font<'_>,
    items: &[Item<'_>],
    geo: Geometry,
    center_used: bool,
) -> Result<(), SheetError> {
    let paper = sheet.paper;
    let grid = Grid::fit(paper, geo.w, geo.h).ok_or(SheetError::TooLarge {
        width_mm: geo.w,
        height_mm: geo.h,
        paper,
    })?;
    let (pw, ph) = paper.size_mm();
    for chunk in items.chunks(grid.per_page()) {
        let mut page = Page {
            width_mm: pw,
            height_mm: ph,
            placed: Vec::new(),
            shapes: Vec::new(),
        };
        let (left, top) = if center_used {
            let cols = chunk.len().min(grid.cols) as f32;
            let rows = chunk.len().div_ceil(grid.cols) as f32;
            (
                ((pw - cols * geo.w) / 2.0).max(MIN_MARGIN_MM),
                ((ph - rows * geo.h) / 2.0).max(MIN_MARGIN_MM),
            )
        } else {
            (grid.left, grid.top)
        };
        for (i, item) in chunk.iter().enumerate() {
            let x = left + (i % grid.cols) as f32 * geo.w;
            let y = top + (i / grid.cols) as f32 * geo.h;
            place(&mut page, &mut sheet.warnings, font, item, geo, x, y)?;
        }
        sheet.pages.push(page);
    }
    Ok(())
}

/// The QR code of `payload` at `version` and `level`, as rows of dark (true) modules.
fn encode_qr(payload: &str, version: i16, level: EcLevel) -> Result<Vec<Vec<bool>>, SheetError> {
    let qr =
        QrCode::with_version(payload.as_bytes(), Version::Normal(version), level).map_err(|e| {
            SheetError::Qr {
                payload: payload.to_owned(),
                reason: e.to_string(),
            }
        })?;
    let width = qr.width();
    let want = 17 + 4 * usize::try_from(version).unwrap_or(0);
    if width != want {
        return Err(SheetError::Qr {
            payload: payload.to_owned(),
            reason: format!("the encoder made {width} modules, not {want}"),
        });
    }
    let colors = qr.to_colors();
    Ok(colors
        .chunks(width)
        .map(|row| row.iter().map(|c| *c == Color::Dark).collect())
        .collect())
}

fn place(
    page: &mut Page,
    warnings: &mut Vec<SheetWarning>,
    font: &Font<'_>,
    item: &Item<'_>,
    geo: Geometry,
    x: f32,
    y: f32,
) -> Result<(), SheetError> {
    let payload = match &item.code {
        Code::Card(tag) => tag.encode().map_err(|source| SheetError::Tag {
            card: tag.card.clone(),
            copy: tag.copy,
            source,
        })?,
        Code::Corner(c) => c.encode(),
    };
    let modules = encode_qr(&payload, geo.version, geo.level)?;
    let sticker = Rect {
        x,
        y,
        w: geo.w,
        h: geo.h,
    };
    let quiet = QUIET_ZONE_MODULES as f32 * geo.module;
    let symbol = Rect {
        x: x + (geo.w - geo.tag) / 2.0,
        y: y + quiet,
        w: geo.tag,
        h: geo.tag,
    };
    let mut runs = Vec::new();
    for (r, row) in modules.iter().enumerate() {
        let mut c = 0;
        while c < row.len() {
            if row.get(c) == Some(&true) {
                let start = c;
                while row.get(c) == Some(&true) {
                    c += 1;
                }
                runs.push(Rect {
                    x: symbol.x + start as f32 * geo.module,
                    y: symbol.y + r as f32 * geo.module,
                    w: (c - start) as f32 * geo.module,
                    h: geo.module,
                });
            } else {
                c += 1;
            }
        }
    }
    page.shapes.push(Shape::StrokeRect {
        rect: sticker,
        width_mm: CUT_LINE_MM,
        gray: CUT_LINE_GRAY,
    });
    page.shapes.push(Shape::FillRects(runs));
    let center = x + geo.w / 2.0;
    let max_width = geo.w - 2.0 * geo.pad_x;
    let label_top = y + geo.outer;
    let lines = [
        (item.label, geo.name_em, label_top + ASCENT_EM * geo.name_em),
        (
            item.sublabel.as_str(),
            geo.sub_em,
            label_top + 1.15 * geo.name_em + ASCENT_EM * geo.sub_em,
        ),
    ];
    for (text, em, baseline) in lines {
        let set = font.line(text, em, max_width, center, baseline);
        if !set.missing.is_empty() {
            warnings.push(SheetWarning::MissingGlyphs {
                text: text.to_owned(),
                missing: set.missing.clone(),
            });
        }
        if set.em_mm < 1.5 && !text.trim().is_empty() {
            warnings.push(SheetWarning::TinyLabel {
                text: text.to_owned(),
                em_mm: set.em_mm,
            });
        }
        page.shapes.extend(set.shapes);
    }
    page.placed.push(Placed {
        code: item.code.clone(),
        payload,
        sticker,
        symbol,
        module_mm: geo.module,
        modules: geo.modules,
        quiet_mm: quiet,
        label: item.label.to_owned(),
        sublabel: item.sublabel.clone(),
    });
    Ok(())
}

/// Formats a length for PDF and SVG: at most 3 decimals, no trailing zeros, never `-0`.
pub(crate) fn num(v: f32) -> String {
    let mut s = format!("{v:.3}");
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    if s == "-0" { "0".to_owned() } else { s }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::core::GameId;

    fn sticker(card: &str, copy: u16, label: &str) -> Sticker {
        Sticker {
            tag: Tag {
                game: GameId::Jaken,
                card: card.into(),
                copy,
            },
            label: label.into(),
            sublabel: format!("{card} #{copy}"),
        }
    }

    #[test]
    fn default_stickers_fit_a_card_and_a4_holds_twelve() {
        let stickers: Vec<Sticker> = (1..=13).map(|i| sticker("JD01", i, "灯り小僧")).collect();
        let sheet = layout(&stickers, &SheetOptions::default()).unwrap();
        assert_eq!(sheet.pages.len(), 2);
        assert_eq!(sheet.pages[0].placed.len(), 12);
        assert_eq!(sheet.pages[1].placed.len(), 1);
        assert!(sheet.warnings.is_empty(), "{:?}", sheet.warnings);
        let p = &sheet.pages[0].placed[0];
        assert!((p.symbol.w - 36.0).abs() < 1e-4);
        assert!(
            p.sticker.w <= CARD_MM.0 && p.sticker.h <= CARD_MM.1,
            "{p:?}"
        );
        let letter = layout(
            &stickers,
            &SheetOptions {
                paper: Paper::Letter,
                ..SheetOptions::default()
            },
        )
        .unwrap();
        assert_eq!(letter.pages[0].placed.len(), 12);
        // Tags of up to 16 characters are version-1 codes: 21 modules of 36/21 mm.
        assert_eq!(p.modules, QR_V1_MODULES);
        assert!((p.quiet_mm - 4.0 * 36.0 / 21.0).abs() < 1e-4);
    }

    #[test]
    fn sizes_out_of_range_oversize_stickers_and_empty_sheets_are_refused_or_warned() {
        let one = [sticker("JD01", 1, "Lantern Imp")];
        let opts = |tag_mm| SheetOptions {
            tag_mm,
            ..SheetOptions::default()
        };
        assert!(matches!(
            layout(&one, &opts(f32::NAN)),
            Err(SheetError::Size(_))
        ));
        assert!(matches!(layout(&one, &opts(1.0)), Err(SheetError::Size(_))));
        assert!(matches!(
            layout(&one, &opts(170.0)),
            Err(SheetError::TooLarge { .. })
        ));
        // 55 mm (the old 1280 × 720 size) is wider than a card; 44 mm fits.
        let big = layout(&one, &opts(55.0)).unwrap();
        assert!(matches!(
            big.warnings.as_slice(),
            [SheetWarning::LargerThanCard { .. }]
        ));
        assert!(
            layout(&one, &opts(TAG_MM_720P))
                .unwrap()
                .warnings
                .is_empty()
        );
        // Two stickers of one copy: refused, naming it.
        let twice = [
            sticker("JD01", 2, "x"),
            sticker("JD02", 1, "y"),
            sticker("JD01", 2, "x"),
        ];
        assert_eq!(
            layout(&twice, &SheetOptions::default()),
            Err(SheetError::Repeated {
                card: "JD01".into(),
                copy: 2,
                count: 2
            })
        );
        // A tag too long for version 1: the whole sheet is version 2, with a warning.
        let long = [sticker("JD01", 1, "x"), sticker("ABCDEFGHIJKL", 123, "y")];
        let sheet = layout(&long, &SheetOptions::default()).unwrap();
        assert!(
            sheet.pages[0]
                .placed
                .iter()
                .all(|p| p.modules == QR_MODULES),
            "{:?}",
            sheet.pages[0].placed
        );
        assert!(matches!(
            sheet.warnings.as_slice(),
            [SheetWarning::Version2 { longest }] if longest.starts_with("TS1:J:ABCDEFGHIJKL:123:")
        ));
        assert_eq!(
            layout(&[], &SheetOptions::default()),
            Err(SheetError::Empty)
        );
        let bad = [sticker("jd01", 1, "x")];
        assert!(matches!(
            layout(&bad, &SheetOptions::default()),
            Err(SheetError::Tag { .. })
        ));
    }

    #[test]
    fn the_documented_sticker_sizes_hold() {
        for (tag, modules, w, h) in [
            (TAG_MM_720P, QR_V1_MODULES, 60.76, 71.49),
            (DEFAULT_TAG_MM, QR_V1_MODULES, 49.71, 58.67),
            (TAG_MM_4K, QR_V1_MODULES, 30.0, 31.51),
            (DEFAULT_TAG_MM, QR_MODULES, 47.52, 56.48),
            (TAG_MM_720P, QR_MODULES, 58.08, 68.80),
        ] {
            let geo = Geometry::new(tag, modules);
            assert!(
                (geo.w - w).abs() < 0.01 && (geo.h - h).abs() < 0.01,
                "{tag} mm, {modules} modules: {geo:?}"
            );
            assert!(geo.w <= CARD_MM.0 && geo.h <= CARD_MM.1);
        }
        // The card offsets the docs give (tag centre above card centre).
        for (tag, v1, offset) in [
            (TAG_MM_720P, true, 9.62),
            (DEFAULT_TAG_MM, true, 15.14),
            (TAG_MM_4K, true, 27.57),
            (DEFAULT_TAG_MM, false, 16.24),
        ] {
            let (_, _, got) = tag_measures(tag, v1);
            assert!((got - offset).abs() < 0.01, "{tag} {v1}: {got}");
        }
        assert!((Paper::A4.size_pt().0 - 595.28).abs() < 0.01);
        assert!((Paper::A4.size_pt().1 - 841.89).abs() < 0.01);
        assert_eq!("Letter".parse::<Paper>(), Ok(Paper::Letter));
        assert!("A5".parse::<Paper>().is_err());
    }

    #[test]
    fn copies_are_numbered_per_card() {
        let ids: Vec<String> = ["A", "B", "A", "A"].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            number_copies(&ids),
            vec![
                ("A".into(), 1),
                ("B".into(), 1),
                ("A".into(), 2),
                ("A".into(), 3)
            ]
        );
    }

    #[test]
    fn numbers_are_short_and_never_negative_zero() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.25), "1.25");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(num(595.2756), "595.276");
    }
}
