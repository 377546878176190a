//! `tableside tags`: a printable sheet of QR stickers for a deck, plus the mat corner markers.

use super::decks::{catalogue_of, load_deck};
use crate::sheet::{
    DEFAULT_MARKER_MM, DEFAULT_TAG_MM, Paper, SheetOptions, TAG_MM_4K, TAG_MM_720P, layout,
    stickers_for, to_pdf, to_svg,
};
use anyhow::{Context, Result, anyhow, bail};
use cards::catalogue::Catalogue;
use cards::core::GameId;
use cards::decks::Deck;
use clap::Args;
use std::path::{Path, PathBuf};

/// `tableside tags …`
#[derive(Debug, Args)]
pub struct TagsArgs {
    /// The deck file whose copies get stickers (docs/decks.md).
    #[arg(long, value_name = "FILE", conflicts_with = "demo")]
    pub deck: Option<PathBuf>,
    /// A catalogue file of the deck's cards (default: the library set the deck names).
    #[arg(long, value_name = "FILE", requires = "deck")]
    pub catalogue: Option<PathBuf>,
    /// A ready-made deck of a built-in demo set, as GAME/LIST (e.g. `jaken/lantern`), or GAME for
    /// every list of that set.
    #[arg(long, value_name = "GAME[/LIST]")]
    pub demo: Option<String>,
    /// Print only the four mat corner markers.
    #[arg(long, conflicts_with_all = ["deck", "demo", "no_markers"])]
    pub markers_only: bool,
    /// Leave out the page of mat corner markers.
    #[arg(long)]
    pub no_markers: bool,
    /// Where to write: a `.pdf` file, or `.svg` (one file per page: NAME-1.svg, NAME-2.svg, …).
    #[arg(long, value_name = "FILE", default_value = "tableside-tags.pdf")]
    pub out: PathBuf,
    /// Width of each card's QR code in mm, without its white margin. 36 suits a 1920×1080 camera
    /// over a 700 mm mat; 55 a 1280×720 camera; 18 a 4K / 12 MP camera.
    #[arg(long, value_name = "MM", default_value_t = DEFAULT_TAG_MM)]
    pub tag_mm: f32,
    /// Width of each corner marker's QR code in mm.
    #[arg(long, value_name = "MM", default_value_t = DEFAULT_MARKER_MM)]
    pub marker_mm: f32,
    /// Paper: a4 or letter.
    #[arg(long, default_value = "a4")]
    pub paper: String,
    /// Language of the card names on the stickers: ja or en.
    #[arg(long, default_value = "ja")]
    pub lang: String,
}

fn demo_decks(spec: &str) -> Result<(Catalogue, Vec<Deck>)> {
    let (game, list) = match spec.split_once('/') {
        Some((g, l)) => (g, Some(l)),
        None => (spec, None),
    };
    let game = GameId::parse(game).ok_or_else(|| {
        anyhow!(
            "unknown game `{game}` (expected one of: {})",
            GameId::ALL.map(GameId::as_str).join(", ")
        )
    })?;
    let cat = Catalogue::builtin(game)?;
    let ids: Vec<String> = match list {
        Some(l) => vec![l.to_owned()],
        None => cat.decks.iter().map(|d| d.id.clone()).collect(),
    };
    let mut decks = Vec::new();
    for id in ids {
        let deck = Deck::from_list(&cat, &id, "").ok_or_else(|| {
            anyhow!(
                "the {game} demo set has no deck `{id}` (it has: {})",
                cat.decks
                    .iter()
                    .map(|d| d.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
        decks.push(deck);
    }
    Ok((cat, decks))
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// Runs `tableside tags`.
pub fn tags(cli: &super::Cli, args: &TagsArgs) -> Result<()> {
    let paper: Paper = args.paper.parse().map_err(|e: String| anyhow!(e))?;
    if args.lang != "ja" && args.lang != "en" {
        bail!("unknown language `{}` (ja or en)", args.lang);
    }
    let (catalogue, decks) = if args.markers_only {
        (None, Vec::new())
    } else if let Some(path) = &args.deck {
        let deck = load_deck(path)?;
        let cat = catalogue_of(cli, &deck, args.catalogue.as_deref())?;
        deck.check(&cat)
            .map_err(|e| anyhow!("{}: {e}", path.display()))?;
        (Some(cat), vec![deck])
    } else if let Some(spec) = &args.demo {
        let (cat, decks) = demo_decks(spec)?;
        (Some(cat), decks)
    } else {
        bail!("say which stickers to print: --deck FILE, --demo GAME[/LIST] or --markers-only");
    };
    let mut stickers = Vec::new();
    if let Some(cat) = &catalogue {
        for deck in &decks {
            let copies: Vec<(String, u16)> =
                deck.copies().map(|c| (c.card.clone(), c.copy)).collect();
            let owner = (!deck.owner.is_empty()).then_some(deck.owner.as_str());
            stickers.extend(stickers_for(cat, &copies, &args.lang, owner)?);
        }
    }
    let opts = SheetOptions {
        tag_mm: args.tag_mm,
        paper,
        markers: !args.no_markers,
        marker_mm: args.marker_mm,
    };
    let sheet = layout(&stickers, &opts)?;
    for w in &sheet.warnings {
        eprintln!("tableside: warning: {w}");
    }
    let is_svg = args
        .out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    let written: Vec<PathBuf> = if is_svg {
        let pages = to_svg(&sheet);
        let stem = args.out.file_stem().map_or_else(
            || "tableside-tags".into(),
            |s| s.to_string_lossy().into_owned(),
        );
        let dir = args.out.parent().unwrap_or(Path::new(""));
        let mut out = Vec::new();
        for (i, page) in pages.iter().enumerate() {
            let path = if pages.len() == 1 {
                args.out.clone()
            } else {
                dir.join(format!("{stem}-{}.svg", i + 1))
            };
            write(&path, page.as_bytes())?;
            out.push(path);
        }
        out
    } else {
        write(&args.out, &to_pdf(&sheet))?;
        vec![args.out.clone()]
    };
    let files: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    println!(
        "{} stickers ({:.0} mm codes){} on {} {} page(s): {}",
        stickers.len(),
        args.tag_mm,
        if opts.markers {
            format!(" and the 4 mat corner markers ({:.0} mm)", args.marker_mm)
        } else {
            String::new()
        },
        sheet.pages.len(),
        paper,
        files.join(", ")
    );
    if args.tag_mm < TAG_MM_4K {
        eprintln!(
            "tableside: warning: {:.0} mm codes are below what even a 4K camera reads over a whole mat ({TAG_MM_4K:.0} mm)",
            args.tag_mm
        );
    } else if args.tag_mm < DEFAULT_TAG_MM {
        eprintln!(
            "tableside: note: {:.0} mm codes need a camera above 1920×1080 (4K / 12 MP reads {TAG_MM_4K:.0} mm; 1280×720 needs {TAG_MM_720P:.0} mm)",
            args.tag_mm
        );
    }
    Ok(())
}
