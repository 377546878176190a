//! `tableside track`: runs the camera side headless over a directory of frames and prints the
//! tracker's events as JSON lines (docs/vision.md).

use super::{db_path, load_deck, open_existing};
use anyhow::{Context, Result, anyhow, bail};
use cards::core::GameId;
use cards::decks::Registry;
use clap::Args;
use hardware::vision::VisionError;
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
    /// The frame rate the frames were taken at: frame n is at n / FPS seconds (0.1 to 1000).
    #[arg(long, value_name = "FPS", allow_hyphen_values = true)]
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
    /// From each tag's centre to its card's centre, in mm towards the tag's bottom edge (15.1
    /// for 36 mm stickers stuck as `tableside tags` says, 9.6 for 44 mm; 0 places cards by
    /// their tag's centre).
    #[arg(
        long,
        value_name = "MM",
        default_value_t = 0.0,
        allow_hyphen_values = true
    )]
    pub card_offset_mm: f64,
    /// A deck file whose copies' owners the events name (repeatable); without any, the decks
    /// registered in the match database (`tableside deck register`) are used.
    #[arg(long = "deck", value_name = "FILE")]
    pub decks: Vec<PathBuf>,
}

/// The frame rates `--fps` takes: a time-lapse of one frame in 10 s up to a 1000 fps camera.
pub const FPS_RANGE: (f64, f64) = (0.1, 1000.0);
/// The card offsets `--card-offset-mm` takes: at most a card's height either way.
pub const OFFSET_RANGE_MM: f64 = 88.0;

/// Checks `tableside track`'s numbers before any frame is read: a clear error, in English and
/// Japanese, for a frame rate or offset that cannot mean anything.
pub fn check_args(args: &TrackArgs) -> Result<()> {
    let (lo, hi) = FPS_RANGE;
    if !(lo..=hi).contains(&args.fps) {
        bail!(
            "--fps {}: the frame rate must be a number from {lo} to {hi} frames a second\n\
             --fps {}: フレームレートは毎秒 {lo}～{hi} フレームの数で指定してください",
            args.fps,
            args.fps
        );
    }
    let m = OFFSET_RANGE_MM;
    if args.card_offset_mm.is_nan() || args.card_offset_mm.abs() > m {
        bail!(
            "--card-offset-mm {}: the offset from a tag's centre to its card's centre must be a \
             number from -{m} to {m} mm\n\
             --card-offset-mm {}: タグ中心からカード中心までの距離は -{m}～{m} mm の数で指定してください",
            args.card_offset_mm,
            args.card_offset_mm
        );
    }
    Ok(())
}

/// Runs `tableside track`.
pub fn track(cli: &super::Cli, args: &TrackArgs) -> Result<()> {
    check_args(args)?;
    let layout = match (&args.mat, &args.game) {
        (Some(path), _) => MatLayout::load_file(path)?,
        (None, Some(name)) => {
            let game = GameId::parse(name).ok_or_else(|| {
                let names = GameId::ALL.map(GameId::as_str).join(", ");
                anyhow!(
                    "unknown game `{name}` (expected one of: {names})\n\
                     `{name}` というゲームはありません（{names} のどれかを指定してください）"
                )
            })?;
            MatLayout::builtin(game)?
        }
        (None, None) => bail!("give a mat layout: --mat FILE or --game NAME"),
    };
    for w in &layout.warnings {
        eprintln!("tableside: warning: {w}");
        eprintln!("tableside: 警告: {}", w.ja());
    }
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
    let both = |e: VisionError| anyhow!("{e}\n{}", e.ja());
    let mut source = DirSource::open(&args.frames)
        .map_err(both)?
        .with_interval(interval);
    let config = TrackerConfig {
        card_offset_mm: args.card_offset_mm,
        ..TrackerConfig::default()
    };
    let mut tracker = Tracker::new(layout, Some(registry), config);
    let mut scanner = Scanner::default();
    let mut out = std::io::stdout().lock();
    loop {
        let frame = match source.next_frame() {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            // One unreadable file (a recording cut off mid-write) loses that frame only: the
            // events so far stand and the frames after it keep their times.
            Err(e @ VisionError::BadImage { .. }) => {
                eprintln!("tableside: warning: {e}; frame skipped");
                eprintln!("tableside: 警告: {}。このフレームを飛ばしました", e.ja());
                continue;
            }
            Err(e) => return Err(both(e)),
        };
        let time = frame.seq as f64 / args.fps;
        for event in tracker.update_frame(time, &frame.image, &mut scanner) {
            serde_json::to_writer(&mut out, &event)?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(())
}
