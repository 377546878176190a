//! A deterministic fuzz harness for the decoders (the coverage-guided one is
//! `fuzz/fuzz_targets/decode_frames.rs`, run with `cargo +nightly fuzz`).
//!
//! Pure noise must never decode; a mutated valid frame must never decode unless the mutation
//! left it unchanged; nothing may panic. `FUZZ_MIB` (default 8) sets the noise volume.
#![allow(clippy::unwrap_used)] // test helpers

use firmware_bridge::frame::{DecodeError, FrameDecoder, encode};
use firmware_bridge::message::*;
use firmware_bridge::text::LineDecoder;
use firmware_bridge::tower::Tower;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn sample_frames(rng: &mut StdRng, n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|_| {
            let boot = BootId(rng.random_range(1..=u32::MAX));
            let msg = match rng.random_range(0..5) {
                0 => DeviceMessage::Hello(Hello {
                    protocol: 1,
                    device: DeviceId(rng.random_range(1..=u64::MAX)),
                    boot,
                    firmware: FirmwareVersion {
                        major: 1,
                        minor: 0,
                        patch: rng.random(),
                    },
                    dice: DiceSet::new(&[6, 6, 20][..rng.random_range(0..=3)]).unwrap(),
                    last_seq: rng.random_range(0..100_000),
                    prev_boot: BootId(boot.0 ^ 1),
                    prev_last_seq: rng.random_range(0..100_000),
                }),
                1 => DeviceMessage::RollStarted(RollStarted {
                    boot,
                    dice: rng.random(),
                }),
                2 => {
                    let sides = rng.random_range(2..=u8::MAX);
                    let seq = rng.random_range(1..=u32::MAX);
                    DeviceMessage::RollResult(RollResult {
                        boot,
                        seq,
                        throw: rng.random_range(seq.saturating_sub(3).max(1)..=seq),
                        die: rng.random(),
                        sides,
                        value: rng.random_range(1..=sides),
                        age_ms: rng.random_range(0..60_000),
                    })
                }
                3 => DeviceMessage::Heartbeat(Heartbeat {
                    boot,
                    last_seq: rng.random(),
                    uptime_ms: rng.random(),
                }),
                _ => DeviceMessage::Fault(Fault {
                    boot,
                    code: FaultCode::from(rng.random::<u16>()),
                    detail: rng.random(),
                }),
            };
            encode(&msg).unwrap().as_bytes().to_vec()
        })
        .collect()
}

fn mutate(rng: &mut StdRng, frame: &[u8], other: &[u8]) -> Vec<u8> {
    let mut f = frame.to_vec();
    for _ in 0..rng.random_range(1..=3) {
        let body = f.len().saturating_sub(1).max(1);
        if f.len() < 2 {
            f.insert(0, rng.random());
        }
        match rng.random_range(0..6) {
            0 => {
                let i = rng.random_range(0..body);
                f[i] ^= 1 << rng.random_range(0..8);
            }
            1 => {
                let i = rng.random_range(0..body);
                f[i] = rng.random();
            }
            2 => {
                let i = rng.random_range(0..body);
                f.insert(i, rng.random());
            }
            3 if f.len() > 2 => {
                let i = rng.random_range(0..f.len() - 1);
                f.remove(i);
            }
            4 => {
                let keep = rng.random_range(1..f.len());
                f.truncate(keep);
                f.push(0);
            }
            _ => {
                // Splice: the head of this frame, the tail of another.
                let a = rng.random_range(1..f.len());
                let b = rng.random_range(0..other.len());
                f.truncate(a);
                f.extend_from_slice(&other[b..]);
            }
        }
    }
    if f.last() != Some(&0) {
        f.push(0);
    }
    f
}

#[derive(Default, Debug)]
struct Outcomes {
    ok: u64,
    errors: std::collections::BTreeMap<&'static str, u64>,
}

impl Outcomes {
    fn note<M>(&mut self, r: Result<M, DecodeError>) -> Option<M> {
        let name = match r {
            Ok(m) => {
                self.ok += 1;
                return Some(m);
            }
            Err(DecodeError::TooLong) => "too_long",
            Err(DecodeError::Cobs) => "cobs",
            Err(DecodeError::TooShort { .. }) => "too_short",
            Err(DecodeError::Crc { .. }) => "crc",
            Err(DecodeError::Version(_)) => "version",
            Err(DecodeError::Direction(_)) => "direction",
            Err(DecodeError::Payload(_)) => "payload",
            Err(DecodeError::Invalid(_)) => "invalid",
        };
        *self.errors.entry(name).or_default() += 1;
        None
    }
}

#[test]
fn noise_never_decodes() {
    let mib: usize = std::env::var("FUZZ_MIB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    let mut rng = StdRng::seed_from_u64(0xF022);
    let mut device = FrameDecoder::new();
    let mut host = FrameDecoder::new();
    let mut lines = LineDecoder::new();
    let mut tower = Tower::<8>::new(
        DeviceId(1),
        BootId(1),
        FirmwareVersion {
            major: 1,
            minor: 0,
            patch: 0,
        },
        DiceSet::EMPTY,
    )
    .unwrap();
    let mut outcomes = Outcomes::default();
    let mut tower_replies = 0u64;
    let mut chunk = vec![0u8; 1 << 16];
    let started = std::time::Instant::now();
    for _ in 0..mib * 16 {
        rng.fill(&mut chunk[..]);
        for &b in &chunk {
            if let Some(r) = device.push::<DeviceMessage>(b) {
                outcomes.note(r);
            }
            if let Some(r) = host.push::<HostMessage>(b) {
                outcomes.note(r);
            }
            let _ = lines.push(b);
        }
        tower.receive(&chunk, 0, &mut |_| tower_replies += 1);
    }
    println!(
        "{mib} MiB of noise in {:?}: {} frames refused {:?}, {} accepted; tower answered {tower_replies} times",
        started.elapsed(),
        outcomes.errors.values().sum::<u64>(),
        outcomes.errors,
        outcomes.ok
    );
    assert_eq!(outcomes.ok, 0);
    assert!(outcomes.errors.values().sum::<u64>() > (mib as u64) * 4000);
}

#[test]
fn mutated_frames_never_decode() {
    let mut rng = StdRng::seed_from_u64(0xF00D);
    let frames = sample_frames(&mut rng, 1000);
    let mut outcomes = Outcomes::default();
    let mut unchanged = 0;
    const CASES: usize = 200_000;
    for i in 0..CASES {
        let frame = &frames[i % frames.len()];
        let other = &frames[(i * 7 + 3) % frames.len()];
        let damaged = mutate(&mut rng, frame, other);
        let mut d = FrameDecoder::new();
        for &b in &damaged {
            if let Some(msg) = d.push::<DeviceMessage>(b).and_then(|r| outcomes.note(r)) {
                // Only acceptable if the mutations put back one of the frames really sent.
                let again = encode(&msg).unwrap().as_bytes().to_vec();
                assert!(
                    again == *frame || again == *other,
                    "damaged frame accepted: {damaged:02x?} from {frame:02x?}"
                );
                unchanged += 1;
            }
        }
    }
    println!(
        "{CASES} mutated frames: refused {:?}, accepted {} (all unchanged copies)",
        outcomes.errors, unchanged
    );
    assert!(outcomes.errors.values().sum::<u64>() >= (CASES as u64) * 9 / 10);
}
