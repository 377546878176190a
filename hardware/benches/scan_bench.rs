//! `scan-bench`: recall, false results and decode cost of the QR detector on directories of
//! images with their expected payloads, side by side with zxing-cpp when it is installed.
//!
//! Expected codes sit beside each image, in one of three sidecars:
//! - `<name>.txt`: the whole file is the one payload of a one-code image (ZXing's sets);
//! - `<name>.json`: a JSON array of the payloads of every code in the image;
//! - `<name>.codes`: one payload a line, for several codes without line breaks.
//!
//! An image without a sidecar expects no code: anything read there is a false result.
//!
//! Prints one row per directory — reads (images × turns), codes expected, recall, false
//! results, decode time per image (this thread's CPU time: mean, median, p95, max), the median
//! cost per megapixel, `rqrr` panics contained — and the same for zxing-cpp (recall, false,
//! median ms) with the ratio of the medians, then the same per image resolution across all
//! directories, then a size sweep (`--sizes`: every image of the first directory scaled to
//! 0.1–8 megapixels: ms and ms per megapixel at each size) and the hostile frames of issue 21
//! (a 1024² noise frame, a 1080p wall of finder look-alikes: `Detector::detect` and
//! `Scanner::scan`, ms per frame, worst of several).
//!
//! Without directories it reads ZXing's real photos, `shared/bench/qr-real/qrcode-1 … 4` in a
//! folder above the workspace (skipped with a message when absent). `--rotate` also reads every
//! image turned 90°, 180° and 270°, as ZXing does; `--verbose` lists the misses and false
//! results; `--no-zxing` skips the comparison.
//!
//! zxing-cpp runs in a Python helper (`zxingcpp.read_barcodes`, QR only, plain text; its own
//! time measured around that call in the helper's thread CPU time). Install it once with
//! `python3 -m venv /work/venv-zxing && /work/venv-zxing/bin/pip install zxing-cpp pillow` and
//! name the interpreter in `TABLESIDE_ZXING_PYTHON=/work/venv-zxing/bin/python` (else
//! `python3` on the PATH is tried).
//!
//! `cargo bench --workspace --bench scan-bench [-- --rotate --verbose --sizes --no-zxing] [DIR …]`

use hardware::vision::detect::{Detector, Scanner, thread_cpu};
use hardware::vision::source::{DirSource, FrameSource};
use image::GrayImage;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The zxing-cpp helper: reads `{"path": …, "turn": k}` lines, answers `{"texts": […], "ms": …}`.
const ZXING_HELPER: &str = r#"
import sys, json, time
import zxingcpp
from PIL import Image
turns = {1: Image.Transpose.ROTATE_270, 2: Image.Transpose.ROTATE_180, 3: Image.Transpose.ROTATE_90}
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    img = Image.open(req["path"]).convert("L")
    if req.get("turn", 0) in turns:
        img = img.transpose(turns[req["turn"]])
    t0 = time.thread_time_ns()
    res = zxingcpp.read_barcodes(img, formats=zxingcpp.BarcodeFormat.QRCode,
                                 text_mode=zxingcpp.TextMode.Plain)
    ms = (time.thread_time_ns() - t0) / 1e6
    print(json.dumps({"texts": [r.text for r in res], "ms": ms}), flush=True)
"#;

struct Zxing {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Zxing {
    /// Starts the helper, or says why not.
    fn start() -> Result<Zxing, String> {
        let python =
            std::env::var("TABLESIDE_ZXING_PYTHON").unwrap_or_else(|_| "python3".to_owned());
        let mut child = Command::new(&python)
            .arg("-c")
            .arg(ZXING_HELPER)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{python}: {e}"))?;
        let (Some(input), Some(out)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("no pipes".into());
        };
        let mut output = BufReader::new(out);
        let mut line = String::new();
        if output.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            let _ = child.wait();
            return Err(format!("{python} cannot import zxingcpp and PIL"));
        }
        Ok(Zxing {
            child,
            input,
            output,
        })
    }

    /// The texts zxing-cpp reads in `path` turned `turn` quarters clockwise, and its time.
    fn read(&mut self, path: &Path, turn: u32) -> Option<(Vec<String>, f64)> {
        let req = serde_json::json!({"path": path, "turn": turn});
        writeln!(self.input, "{req}").ok()?;
        let mut line = String::new();
        self.output.read_line(&mut line).ok()?;
        let v: serde_json::Value = serde_json::from_str(&line).ok()?;
        let texts = v["texts"]
            .as_array()?
            .iter()
            .filter_map(|t| t.as_str().map(str::to_owned))
            .collect();
        Some((texts, v["ms"].as_f64()?))
    }
}

impl Drop for Zxing {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The codes an image is expected to hold, from its sidecar (empty: none).
fn expected(path: &Path) -> Result<Vec<String>, String> {
    let txt = path.with_extension("txt");
    let json = path.with_extension("json");
    let codes = path.with_extension("codes");
    if json.is_file() {
        let text =
            std::fs::read_to_string(&json).map_err(|e| format!("{}: {e}", json.display()))?;
        serde_json::from_str::<Vec<String>>(&text)
            .map_err(|e| format!("{}: a JSON array of strings expected: {e}", json.display()))
    } else if codes.is_file() {
        let text =
            std::fs::read_to_string(&codes).map_err(|e| format!("{}: {e}", codes.display()))?;
        Ok(text
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect())
    } else if txt.is_file() {
        let bytes = std::fs::read(&txt).map_err(|e| format!("{}: {e}", txt.display()))?;
        Ok(vec![String::from_utf8_lossy(&bytes).into_owned()])
    } else {
        Ok(Vec::new())
    }
}

/// Reads of one group (a directory or a resolution), by one reader.
#[derive(Default)]
struct Tally {
    reads: usize,
    codes: usize,
    hits: usize,
    false_results: usize,
    times: Vec<f64>,
    per_mp: Vec<f64>,
}

impl Tally {
    fn add(&mut self, expected: &[String], found: &[String], ms: f64, mp: f64) {
        let want: BTreeSet<&String> = expected.iter().collect();
        let got: BTreeSet<&String> = found.iter().collect();
        self.reads += 1;
        self.codes += want.len();
        self.hits += want.intersection(&got).count();
        self.false_results += got.difference(&want).count();
        self.times.push(ms);
        self.per_mp.push(ms / mp.max(1e-6));
    }

    fn recall(&self) -> f64 {
        100.0 * self.hits as f64 / self.codes.max(1) as f64
    }

    fn at(&self, q: f64) -> f64 {
        percentile(&self.times, q)
    }
}

fn percentile(values: &[f64], q: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let i = ((sorted.len() as f64 - 1.0) * q).round().max(0.0) as usize;
    sorted.get(i).copied().unwrap_or(f64::NAN)
}

fn header(first: &str) {
    println!(
        "{:<12} {:>5} {:>5} {:>7} {:>5} {:>7} {:>7} {:>7} {:>7} {:>7} {:>6} | {:>7} {:>5} {:>7} {:>6}",
        first,
        "reads",
        "codes",
        "recall",
        "false",
        "mean ms",
        "median",
        "p95",
        "max",
        "ms/MP",
        "panics",
        "zx rec",
        "false",
        "zx med",
        "ratio"
    );
}

fn row(name: &str, ours: &Tally, panics: Option<usize>, zx: Option<&Tally>) {
    let n = ours.reads.max(1) as f64;
    let zx_part = match zx {
        Some(z) if z.reads > 0 => format!(
            "{:>6.1}% {:>5} {:>7.2} {:>5.1}x",
            z.recall(),
            z.false_results,
            z.at(0.5),
            ours.at(0.5) / z.at(0.5).max(1e-6)
        ),
        _ => format!("{:>7} {:>5} {:>7} {:>6}", "-", "-", "-", "-"),
    };
    println!(
        "{:<12} {:>5} {:>5} {:>6.1}% {:>5} {:>7.2} {:>7.2} {:>7.2} {:>7.2} {:>7.2} {:>6} | {zx_part}",
        name,
        ours.reads,
        ours.codes,
        ours.recall(),
        ours.false_results,
        ours.times.iter().sum::<f64>() / n,
        ours.at(0.5),
        ours.at(0.95),
        percentile(&ours.times, 1.0),
        percentile(&ours.per_mp, 0.5),
        panics.map_or_else(|| "-".to_owned(), |p| p.to_string()),
    );
}

fn turned(image: &GrayImage, turn: u32) -> GrayImage {
    match turn {
        1 => image::imageops::rotate90(image),
        2 => image::imageops::rotate180(image),
        3 => image::imageops::rotate270(image),
        _ => image.clone(),
    }
}

/// `shared/bench/qr-real` in the nearest folder above the workspace that has it.
fn default_sets() -> Option<Vec<PathBuf>> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = here
        .ancestors()
        .map(|a| a.join("shared/bench/qr-real"))
        .find(|p| p.is_dir())?;
    Some(
        ["qrcode-1", "qrcode-2", "qrcode-3", "qrcode-4"]
            .iter()
            .map(|s| root.join(s))
            .collect(),
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    let verbose = flag("--verbose");
    // As upstream ZXing does: every image also turned 90°, 180° and 270°.
    let rotations = if flag("--rotate") { 4 } else { 1 };
    // `cargo bench` passes `--bench`; every other word not starting with `--` is a directory.
    let mut dirs: Vec<PathBuf> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .collect();
    if dirs.is_empty() {
        match default_sets() {
            Some(d) => dirs = d,
            None => println!(
                "scan-bench: no shared/bench/qr-real above {}; photo sets skipped (the photos \
                 live outside the repository; name image directories to read others)",
                env!("CARGO_MANIFEST_DIR")
            ),
        }
    }
    let mut zxing = if flag("--no-zxing") {
        None
    } else {
        match Zxing::start() {
            Ok(z) => Some(z),
            Err(e) => {
                println!(
                    "zxing-cpp not run ({e}): install it with `python3 -m venv /work/venv-zxing \
                     && /work/venv-zxing/bin/pip install zxing-cpp pillow` and set \
                     TABLESIDE_ZXING_PYTHON=/work/venv-zxing/bin/python"
                );
                None
            }
        }
    };
    println!(
        "times: this thread's CPU time per image (one core), one `Detector::detect` call; \
         zxing-cpp: one read_barcodes call (QR only), its thread's CPU time; ratio: median ours / \
         median zxing-cpp; {} turn(s) per image",
        rotations
    );
    let mut by_size: BTreeMap<(u32, u32), (Tally, Tally)> = BTreeMap::new();
    header("set");
    for dir in &dirs {
        let set = dir.file_name().map_or_else(
            || dir.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let mut source = match DirSource::open(dir) {
            Ok(s) => s,
            Err(e) => {
                println!("{set}: {e}");
                continue;
            }
        };
        let paths: Vec<PathBuf> = source.remaining().map(Path::to_path_buf).collect();
        let detector = Detector::default();
        let (mut ours, mut theirs) = (Tally::default(), Tally::default());
        let mut notes = Vec::new();
        for path in &paths {
            let frame = match source.next_frame() {
                Ok(Some(f)) => f,
                Ok(None) => break,
                Err(e) => {
                    println!("  {e}");
                    continue;
                }
            };
            let want = match expected(path) {
                Ok(w) => w,
                Err(e) => {
                    println!("  {e}");
                    continue;
                }
            };
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            for turn in 0..rotations {
                let image = turned(&frame.image, turn);
                let mp = f64::from(image.width()) * f64::from(image.height()) / 1e6;
                let before = detector.panics_contained();
                let t = thread_cpu();
                let found = detector.detect(&image);
                let ms = (thread_cpu() - t).as_secs_f64() * 1000.0;
                if detector.panics_contained() > before {
                    println!(
                        "    panic contained: {} turned {}°",
                        path.display(),
                        turn * 90
                    );
                }
                let texts: Vec<String> = found.into_iter().map(|d| d.text).collect();
                let size = (image.width(), image.height());
                let entry = by_size.entry(size).or_default();
                ours.add(&want, &texts, ms, mp);
                entry.0.add(&want, &texts, ms, mp);
                let missed: Vec<&String> = want.iter().filter(|w| !texts.contains(w)).collect();
                let wrong: Vec<String> = texts
                    .iter()
                    .filter(|t| !want.contains(t))
                    .map(|t| t.chars().take(30).collect())
                    .collect();
                let mut zx_note = String::new();
                if let Some(z) = zxing.as_mut()
                    && let Some((zt, zms)) = z.read(path, turn)
                {
                    theirs.add(&want, &zt, zms, mp);
                    entry.1.add(&want, &zt, zms, mp);
                    let zx_hits = want.iter().filter(|w| zt.contains(w)).count();
                    zx_note = format!(" (zxing-cpp {zx_hits}/{})", want.len());
                }
                if !missed.is_empty() {
                    notes.push(format!(
                        "miss {name} {}°: {} of {} missed, read {wrong:?}{zx_note} {ms:.1} ms",
                        turn * 90,
                        missed.len(),
                        want.len()
                    ));
                } else if !wrong.is_empty() {
                    notes.push(format!("false {name} {}°: read {wrong:?}", turn * 90));
                }
            }
        }
        row(
            &set,
            &ours,
            Some(detector.panics_contained()),
            zxing.as_ref().map(|_| &theirs),
        );
        if verbose {
            for n in notes {
                println!("    {n}");
            }
        }
    }
    if !by_size.is_empty() {
        println!();
        header("resolution");
        for ((w, h), (ours, theirs)) in &by_size {
            row(
                &format!("{w}x{h}"),
                ours,
                None,
                zxing.as_ref().map(|_| theirs),
            );
        }
    }
    if flag("--sizes")
        && let Some(dir) = dirs.first()
    {
        size_sweep(dir, zxing.as_mut());
    }
    hostile();
}

/// Every image of `dir` scaled to 0.1–8 megapixels (aspect kept): decode time and time per
/// megapixel at each size, ours and zxing-cpp's.
fn size_sweep(dir: &Path, mut zxing: Option<&mut Zxing>) {
    let Ok(source) = DirSource::open(dir) else {
        return;
    };
    let paths: Vec<PathBuf> = source.remaining().map(Path::to_path_buf).collect();
    let Ok(tmp) = tempfile::tempdir() else {
        return;
    };
    println!();
    println!(
        "size sweep: the {} images of {} scaled to each size (Triangle filter)",
        paths.len(),
        dir.display()
    );
    println!(
        "{:>6} {:>11} {:>7} {:>8} {:>8} {:>9} | {:>7} {:>8} {:>9}",
        "MP", "size", "recall", "median", "p95", "ms/MP", "zx rec", "zx med", "zx ms/MP"
    );
    let detector = Detector::default();
    // Median ms at each size, to check that a smaller picture never costs more.
    let mut medians: Vec<(f64, f64)> = Vec::new();
    // The 0.1–8 MP sweep (aspect kept), then a 1280 × 720 camera picture (scaled to cover it
    // and cut to it around the centre).
    let sizes = [0.1f64, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 0.0];
    for target_mp in sizes {
        let (mut ours, mut theirs) = (Tally::default(), Tally::default());
        let mut dims = (0, 0);
        for (i, path) in paths.iter().enumerate() {
            let Ok(img) = image::open(path) else {
                continue;
            };
            let img = img.to_luma8();
            let scaled = if target_mp > 0.0 {
                let k =
                    (target_mp * 1e6 / (f64::from(img.width()) * f64::from(img.height()))).sqrt();
                let (w, h) = (
                    (f64::from(img.width()) * k).round().max(21.0) as u32,
                    (f64::from(img.height()) * k).round().max(21.0) as u32,
                );
                image::imageops::resize(&img, w, h, image::imageops::FilterType::Triangle)
            } else {
                let k = (1280.0 / f64::from(img.width())).max(720.0 / f64::from(img.height()));
                let (w, h) = (
                    (f64::from(img.width()) * k).ceil().max(1280.0) as u32,
                    (f64::from(img.height()) * k).ceil().max(720.0) as u32,
                );
                let big =
                    image::imageops::resize(&img, w, h, image::imageops::FilterType::Triangle);
                image::imageops::crop_imm(&big, (w - 1280) / 2, (h - 720) / 2, 1280, 720).to_image()
            };
            let (w, h) = scaled.dimensions();
            dims = (w, h);
            let want = expected(path).unwrap_or_default();
            let mp = f64::from(w) * f64::from(h) / 1e6;
            let t = thread_cpu();
            let found = detector.detect(&scaled);
            let ms = (thread_cpu() - t).as_secs_f64() * 1000.0;
            let texts: Vec<String> = found.into_iter().map(|d| d.text).collect();
            ours.add(&want, &texts, ms, mp);
            if let Some(z) = zxing.as_deref_mut() {
                let file = tmp.path().join(format!("{i}.png"));
                if scaled.save(&file).is_ok()
                    && let Some((zt, zms)) = z.read(&file, 0)
                {
                    theirs.add(&want, &zt, zms, mp);
                }
            }
        }
        let zx = if theirs.reads > 0 {
            format!(
                "{:>6.1}% {:>8.2} {:>9.2}",
                theirs.recall(),
                theirs.at(0.5),
                percentile(&theirs.per_mp, 0.5)
            )
        } else {
            format!("{:>7} {:>8} {:>9}", "-", "-", "-")
        };
        let mp = f64::from(dims.0) * f64::from(dims.1) / 1e6;
        if target_mp > 0.0 {
            medians.push((mp, ours.at(0.5)));
        } else {
            println!("camera picture (cut to 1280x720; target ≤ 5 ms median):");
        }
        println!(
            "{:>6.2} {:>11} {:>6.1}% {:>8.2} {:>8.2} {:>9.2} | {zx}",
            mp,
            format!("{}x{}", dims.0, dims.1),
            ours.recall(),
            ours.at(0.5),
            ours.at(0.95),
            percentile(&ours.per_mp, 0.5),
        );
    }
    let dearer: Vec<String> = medians
        .windows(2)
        .filter(|w| w[0].1 > w[1].1)
        .map(|w| {
            format!(
                "{:.2} MP {:.2} ms > {:.2} MP {:.2} ms",
                w[0].0, w[0].1, w[1].0, w[1].1
            )
        })
        .collect();
    if dearer.is_empty() {
        println!("a smaller picture never cost more (median ms rises with the size)");
    } else {
        println!("a smaller picture cost more: {}", dearer.join("; "));
    }
}

/// A frame of seeded uniform noise.
fn noise_frame(w: u32, h: u32, seed: u64) -> GrayImage {
    let mut s = seed;
    GrayImage::from_fn(w, h, |_, _| {
        // SplitMix64.
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        image::Luma([((z ^ (z >> 31)) & 0xFF) as u8])
    })
}

/// A 1080p frame tiled with finder look-alikes (7 × 7-module squares, 1:1:3:1:1 both ways) of
/// several module sizes, on a regular grid: every finder has partners at right angles.
fn finder_wall(w: u32, h: u32, unit: u32) -> GrayImage {
    let cell = unit * 10;
    GrayImage::from_fn(w, h, |x, y| {
        let (mx, my) = ((x % cell) / unit, (y % cell) / unit);
        let dark = mx < 7 && my < 7 && {
            let ring = mx == 0 || my == 0 || mx == 6 || my == 6;
            let core = (2..=4).contains(&mx) && (2..=4).contains(&my);
            ring || core
        };
        image::Luma([if dark { 20 } else { 235 }])
    })
}

/// Issue 21's hostile frames: each read by `Detector::detect` and by a fresh `Scanner` (its
/// first, whole-frame search), the worst of five runs, in this thread's CPU time.
fn hostile() {
    println!();
    println!("hostile frames (worst of 5 runs, ms of one core; target ≤ 200 ms a frame)");
    println!(
        "{:<34} {:>10} {:>10} {:>6}",
        "frame", "detect", "scan", "codes"
    );
    let frames: Vec<(String, GrayImage)> = vec![
        ("noise 1024x1024".into(), noise_frame(1024, 1024, 7)),
        ("noise 1920x1080".into(), noise_frame(1920, 1080, 8)),
        (
            "finder wall 1920x1080, 2 px".into(),
            finder_wall(1920, 1080, 2),
        ),
        (
            "finder wall 1920x1080, 3 px".into(),
            finder_wall(1920, 1080, 3),
        ),
        (
            "finder wall 1920x1080, 5 px".into(),
            finder_wall(1920, 1080, 5),
        ),
    ];
    for (name, frame) in &frames {
        let detector = Detector::default();
        let (mut worst_detect, mut worst_scan, mut codes) = (0.0f64, 0.0f64, 0);
        for _ in 0..5 {
            let t = thread_cpu();
            codes = codes.max(detector.detect(frame).len());
            worst_detect = worst_detect.max((thread_cpu() - t).as_secs_f64() * 1000.0);
            let mut scanner = Scanner::default();
            let t = thread_cpu();
            codes = codes.max(scanner.scan(frame).len());
            worst_scan = worst_scan.max((thread_cpu() - t).as_secs_f64() * 1000.0);
        }
        println!("{name:<34} {worst_detect:>10.1} {worst_scan:>10.1} {codes:>6}");
    }
}
