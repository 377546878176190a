//! The JPEG decode alone, per frame, in this thread's CPU time (one core): the camera path's
//! baseline decoder (`vision::jpeg::decode`: AVX2 where the processor has it), its portable
//! code (`jpeg::decode_portable`: what a Raspberry Pi runs, as NEON) and the general decoder
//! (`luma::from_jpeg_general`, zune-jpeg), over the same JPEG files, each file read once
//! beforehand. Every picture is checked: the three agree to 2 grey levels (the portable and
//! the vector code exactly), or the bench stops.
//!
//! `cargo bench --workspace --bench jpeg_luma -- DIR [--limit N] [--repeat R] [--only fast |
//! portable | general]` — DIR holds
//! `.jpg` files, such as the frames `camera_path --keep DIR` writes. Prints median / p95 / max
//! ms per frame for each decoder. Small enough to build for and run on a Pi
//! (`scripts/cross-build-arm64.sh` sets up the cross build).

mod common;

use common::{arg, spread, thread_cpu};
use hardware::vision::{jpeg, luma};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let dir = args
        .iter()
        .skip(1)
        .find(|a| !a.starts_with("--") && std::path::Path::new(a).is_dir())
        .ok_or("usage: jpeg_luma DIR [--limit N] [--repeat R] (DIR: .jpg files)")?;
    let limit: usize = arg(&args, "--limit").unwrap_or(usize::MAX);
    let repeat: usize = arg(&args, "--repeat").unwrap_or(1).max(1);
    // One decoder only (`fast`, `portable`, `general`): for counting its instructions alone
    // (callgrind; on another processor, an emulator's instruction trace). No agreement check.
    let only: Option<String> = arg(&args, "--only");
    let mut paths: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jpg" || x == "jpeg"))
        .collect();
    paths.sort();
    paths.truncate(limit);
    if paths.is_empty() {
        return Err(format!("no .jpg files in {dir}").into());
    }
    let files: Vec<Vec<u8>> = paths.iter().map(std::fs::read).collect::<Result<_, _>>()?;
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    let (mut fast, mut portable, mut general) = (Vec::new(), Vec::new(), Vec::new());
    let mut size = (0, 0);
    for _ in 0..repeat {
        for (bytes, path) in files.iter().zip(&paths) {
            if let Some(which) = &only {
                let c0 = thread_cpu();
                let ok = match which.as_str() {
                    "fast" => jpeg::decode(bytes, luma::MAX_SIDE).is_ok(),
                    "portable" => jpeg::decode_portable(bytes, luma::MAX_SIDE).is_ok(),
                    "general" => luma::from_jpeg_general(bytes).is_ok(),
                    _ => return Err("--only fast | portable | general".into()),
                };
                if !ok {
                    return Err(format!("{}: not decoded", path.display()).into());
                }
                let c1 = thread_cpu();
                match which.as_str() {
                    "fast" => fast.push(ms(c1 - c0)),
                    "portable" => portable.push(ms(c1 - c0)),
                    _ => general.push(ms(c1 - c0)),
                }
                if size == (0, 0) {
                    let first = luma::from_jpeg(bytes)?;
                    size = (first.width() as usize, first.height() as usize);
                }
                continue;
            }
            let c0 = thread_cpu();
            let a = jpeg::decode(bytes, luma::MAX_SIDE);
            let c1 = thread_cpu();
            let b = jpeg::decode_portable(bytes, luma::MAX_SIDE);
            let c2 = thread_cpu();
            let z = luma::from_jpeg_general(bytes);
            let c3 = thread_cpu();
            fast.push(ms(c1 - c0));
            portable.push(ms(c2 - c1));
            general.push(ms(c3 - c2));
            let (a, b) = (
                a.map_err(|e| format!("{}: {e:?}", path.display()))?,
                b.map_err(|e| format!("{}: {e:?}", path.display()))?,
            );
            let z = z?;
            if a != b {
                return Err(format!("{}: the portable code differs", path.display()).into());
            }
            let worst = a
                .pixels
                .iter()
                .zip(z.as_raw())
                .map(|(x, y)| x.abs_diff(*y))
                .max()
                .unwrap_or(0);
            if worst > 2 {
                return Err(format!("{}: {worst} from zune-jpeg", path.display()).into());
            }
            size = (a.width, a.height);
        }
    }
    println!(
        "{} frames of {}x{} ({} files x {repeat}), ms per frame, median / p95 / max:",
        fast.len().max(portable.len()).max(general.len()),
        size.0,
        size.1,
        files.len()
    );
    println!(
        "  vision::jpeg::decode           {}",
        spread(&mut fast, 2, "")
    );
    println!(
        "  vision::jpeg::decode_portable  {}",
        spread(&mut portable, 2, "")
    );
    println!(
        "  zune-jpeg (luma)               {}",
        spread(&mut general, 2, "")
    );
    Ok(())
}
