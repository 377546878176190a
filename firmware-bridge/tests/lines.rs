//! Line mode's check (`PROTOCOL.md`, section 9): 10,000 checked `ROLL` lines, each with one
//! bit flipped somewhere (its newline too), read by the host's line decoder. Not one wrong
//! value may be accepted: a damaged line is refused, or (when the flip merged it with the
//! next line) refused with it. Lines with several flipped bits are measured too.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use firmware_bridge::text::{LineDecoder, RollLine, TextThrow, format_roll_line};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn random_line(rng: &mut StdRng, counter: u32) -> RollLine {
    let sides = [2u8, 4, 6, 8, 10, 12, 20, 100][rng.random_range(0..8)];
    let n = rng.random_range(1..=3);
    let values: Vec<u8> = (0..n).map(|_| rng.random_range(1..=sides)).collect();
    RollLine {
        throw: TextThrow::new(sides, &values).unwrap(),
        counter: Some(counter),
        checked: true,
    }
}

fn bytes_of(line: &RollLine) -> Vec<u8> {
    let mut out = [0u8; 80];
    let n = format_roll_line(line, &mut out).unwrap();
    out[..n].to_vec()
}

/// Feeds `damaged` then a clean sentinel line; returns (accepted lines other than the
/// sentinel, whether the sentinel came through).
fn read(damaged: &[u8], sentinel: &RollLine) -> (Vec<RollLine>, bool) {
    let mut d = LineDecoder::new();
    let mut accepted = Vec::new();
    let mut stream = damaged.to_vec();
    stream.extend(bytes_of(sentinel));
    for b in stream {
        if let Some(Ok(Some(line))) = d.push(b) {
            accepted.push(line);
        }
    }
    let sentinel_ok = accepted.last() == Some(sentinel);
    if sentinel_ok {
        accepted.pop();
    }
    (accepted, sentinel_ok)
}

fn flip(rng: &mut StdRng, bytes: &mut [u8]) {
    let i = rng.random_range(0..bytes.len());
    bytes[i] ^= 1 << rng.random_range(0..8);
}

#[test]
fn ten_thousand_checked_lines_with_a_bit_flipped_accept_no_wrong_value() {
    let mut rng = StdRng::seed_from_u64(0x11AE);
    let mut refused = 0;
    let mut same = 0;
    let mut unchecked = 0;
    for k in 0..10_000u32 {
        let line = random_line(&mut rng, k + 1);
        let sentinel = random_line(&mut rng, k + 2);
        let mut damaged = bytes_of(&line);
        flip(&mut rng, &mut damaged);
        let (accepted, _) = read(&damaged, &sentinel);
        match accepted.as_slice() {
            [] => refused += 1,
            // A flip can only come through harmless if it changed nothing covered: none does.
            [got] if *got == line => same += 1,
            // The `*` flipped into a newline (0x2A ^ 0x20 = 0x0A) ends the line just before
            // its check: the values are the ones printed, and the link refuses the line
            // anyway, as its tower checks its lines (`link::lines`).
            [got]
                if !got.checked
                    && RollLine {
                        checked: true,
                        ..*got
                    } == line =>
            {
                unchecked += 1;
            }
            other => panic!(
                "wrong line accepted: {:?} from {:?} ({:?})",
                other,
                line,
                String::from_utf8_lossy(&damaged)
            ),
        }
    }
    println!(
        "10,000 lines with one bit flipped: {refused} refused, {unchecked} cut before their \
         check (right values, refused by the link), {same} unchanged, 0 wrong"
    );
    assert_eq!(refused + same + unchecked, 10_000);
    assert!(refused > 9_900);
}

#[test]
fn several_flipped_bits_are_caught_all_but_rarely() {
    let mut rng = StdRng::seed_from_u64(0x22AE);
    let mut wrong = 0;
    const LINES: u32 = 20_000;
    for k in 0..LINES {
        let line = random_line(&mut rng, k + 1);
        let sentinel = random_line(&mut rng, k + 2);
        let mut damaged = bytes_of(&line);
        for _ in 0..rng.random_range(2..=4) {
            flip(&mut rng, &mut damaged);
        }
        let (accepted, _) = read(&damaged, &sentinel);
        // Wrong: another face or another line number than printed (a line cut before its
        // check keeps both).
        wrong += accepted
            .iter()
            .filter(|l| l.throw != line.throw || l.counter != line.counter)
            .count();
    }
    let rate = wrong as f64 / f64::from(LINES);
    println!("{LINES} lines with 2 to 4 bits flipped: {wrong} wrong lines accepted ({rate:.5})");
    // CRC-8 lets at most about 1 in 256 of such damage through; the line's grammar most of
    // the rest.
    assert!(rate < 1.0 / 256.0, "{rate}");
}
