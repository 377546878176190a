//! Feeds arbitrary bytes to every decoder of the protocol core: frames in both directions,
//! text lines, and the tower's receive path. Checks more than "no panic": whatever decodes
//! must be the canonical encoding of what it decoded to, and must obey the field rules.
#![no_main]

use firmware_bridge::frame::{FrameDecoder, encode};
use firmware_bridge::message::{
    BootId, DeviceId, DeviceMessage, DiceSet, FirmwareVersion, HostMessage, WireMessage,
};
use firmware_bridge::text::{LineDecoder, MAX_LINE, format_roll_line, parse_line};
use firmware_bridge::tower::{Settled, Tower};
use libfuzzer_sys::fuzz_target;

/// Decodes the stream; for each message decoded, its encoding must be exactly the bytes of
/// the frame it came from.
fn check_frames<M: WireMessage + PartialEq + core::fmt::Debug>(data: &[u8]) {
    let mut decoder = FrameDecoder::new();
    let mut start = 0;
    for (i, &b) in data.iter().enumerate() {
        if let Some(Ok(msg)) = decoder.push::<M>(b) {
            assert!(msg.validate().is_ok());
            let again = encode(&msg).expect("a decoded message encodes");
            assert_eq!(again.as_bytes(), &data[start..=i], "not canonical: {msg:?}");
        }
        if b == 0 {
            start = i + 1;
        }
    }
}

fuzz_target!(|data: &[u8]| {
    check_frames::<DeviceMessage>(data);
    check_frames::<HostMessage>(data);

    let mut lines = LineDecoder::new();
    for &b in data {
        if let Some(Ok(Some(line))) = lines.push(b) {
            let throw = line.throw;
            assert!(!throw.values().is_empty() && throw.values().len() <= 16);
            assert!(throw.sides() >= 2);
            assert!(throw.rolls().all(|r| r.value >= 1 && r.value <= r.sides));
            assert!(line.counter != Some(0));
            // A line that parsed is at most MAX_LINE bytes, and so is its canonical form
            // (with its counter and check, when it had them).
            let mut out = [0u8; MAX_LINE + 1];
            let n = format_roll_line(&line, &mut out).expect("a parsed line formats");
            assert_eq!(parse_line(&out[..n - 1]), Ok(Some(line)));
        }
    }

    let mut tower = Tower::<4>::new(
        DeviceId(1),
        BootId(1),
        FirmwareVersion {
            major: 1,
            minor: 0,
            patch: 0,
        },
        DiceSet::EMPTY,
    )
    .expect("valid tower");
    let _ = tower.roll(0, 6, 3, 0);
    let _ = tower.throw(
        &[
            Settled {
                die: 0,
                sides: 6,
                value: 4,
            },
            Settled {
                die: 1,
                sides: 6,
                value: 5,
            },
        ],
        10,
        &mut |_| {},
    );
    tower.receive(data, 20, &mut |reply| {
        let _ = encode(&reply).expect("the tower only says valid things");
    });
});
