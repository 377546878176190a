//! `tableside track`: runs the camera side headless over a directory of frames and prints the
//! tracker's events as JSON lines (docs/vision.md).

use super::{db_path, load_deck, open_existing};
use anyhow::{Context, Result, anyhow, bail};
use cards::core::GameId;
use cards::decks::Registry;
use clap::Args;
use hardware::vision::detect::Scanner;
use hardware::vision::mat::MatLayout;
use hardware::vision::source::{DirSource, FrameSource};
use hardware::vision::tracker::{Tracker, TrackerConfig};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// `tableside track …`
#[derive(Debug, Args)]
pub struct TrackArgs {
    /// The directory of frames: its .png/.jpg/.jpeg files, read in name order (2 before 10).
    #[arg(value_name = "DIR")]
    pub frames: PathBuf,
    /// The frame rate the frames were taken at: frame n is at n / FPS seconds.
    #[arg(long, value_name = "FPS")]
    pub fps: f64,
    /// The mat layout file (docs/vision.md); or use --game for a built-in one.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "game",
        required_unless_present = "game"
    )]
    pub mat: Option<PathBuf>,
    /// The game whose built-in mat layout to use (jaken, junk-ken, rockman-exe, space-junk,
    /// yomi).
    #[arg(long, value_name = "NAME")]
    pub game: Option<String>,
    /// From each tag's centre to its card's centre, in mm towards the tag's bottom edge (16
    /// for 36 mm stickers at the top of the card, as `tableside tags` prints them; 0 places
    /// cards by their tag's centre).
    #[arg(long, value_name = "MM", default_value_t = 0.0)]
    pub card_offset_mm: f64,
    /// A deck file whose copies' owners the events name (repeatable); without any, the decks
    /// registered in the match database (`tableside deck register`) are used.
    #[arg(long = "deck", value_name = "FILE")]
    pub decks: Vec<PathBuf>,
}

/// Runs `tableside track`.
pub fn track(cli: &super::Cli, args: &TrackArgs) -> Result<()> {
    if !(args.fps > 0.0 && args.fps.is_finite()) {
        bail!("--fps must be a positive number of frames a second");
    }
    let layout = match (&args.mat, &args.game) {
        (Some(path), _) => MatLayout::load_file(path)?,
        (None, Some(name)) => {
            let game = GameId::parse(name).ok_or_else(|| {
                anyhow!(
                    "unknown game `{name}` (expected one of: {})",
                    GameId::ALL.map(GameId::as_str).join(", ")
                )
            })?;
            MatLayout::builtin(game)?
        }
        (None, None) => bail!("give a mat layout: --mat FILE or --game NAME"),
    };
    let registry = if args.decks.is_empty() {
        if db_path(cli)?.exists() {
            open_existing(cli)?.registry()?
        } else {
            Registry::default()
        }
    } else {
        let mut registry = Registry::default();
        for path in &args.decks {
            let deck = load_deck(path)?;
            registry
                .register(&deck)
                .with_context(|| format!("{}", path.display()))?;
        }
        registry
    };
    let interval = Duration::from_secs_f64(1.0 / args.fps);
    let mut source = DirSource::open(&args.frames)?.with_interval(interval);
    let config = TrackerConfig {
        card_offset_mm: args.card_offset_mm,
        ..TrackerConfig::default()
    };
    let mut tracker = Tracker::new(layout, Some(registry), config);
    let mut scanner = Scanner::default();
    let mut out = std::io::stdout().lock();
    while let Some(frame) = source.next_frame()? {
        let time = frame.seq as f64 / args.fps;
        for event in tracker.update(time, &scanner.scan(&frame.image)) {
            serde_json::to_writer(&mut out, &event)?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(())
}
