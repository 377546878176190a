//! Golden wire bytes: every message of protocol version 1, encoded, pinned byte for byte.
//!
//! These are the worked examples of `PROTOCOL.md`; a change here is a protocol change.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use firmware_bridge::frame::{
    DecodeError, FRAME_CRC, FrameDecoder, MAX_WIRE_FRAME, PayloadError, decode_frame, encode,
};
use firmware_bridge::message::*;

mod common;

use common::{device_examples, hex, host_examples, unhex};

/// COBS, written from the spec in `PROTOCOL.md` (not the crate's), to build damaged frames.
fn cobs(raw: &[u8]) -> Vec<u8> {
    let mut out = vec![0];
    let mut code_at = 0;
    for &b in raw {
        if b == 0 {
            out[code_at] = (out.len() - code_at) as u8;
            code_at = out.len();
            out.push(0);
        } else {
            out.push(b);
            if out.len() - code_at == 255 {
                out[code_at] = 255;
                code_at = out.len();
                out.push(0);
            }
        }
    }
    out[code_at] = (out.len() - code_at) as u8;
    out
}

/// A raw frame with a correct CRC around `body` (version and direction included).
fn framed(body: &[u8]) -> Vec<u8> {
    let mut raw = body.to_vec();
    raw.extend_from_slice(&FRAME_CRC.checksum(body).to_le_bytes());
    cobs(&raw)
}

fn decode_device(wire: &[u8]) -> Result<DeviceMessage, DecodeError> {
    let mut w = wire.to_vec();
    decode_frame(&mut w)
}

#[test]
fn every_message_encodes_to_its_golden_bytes_and_back() {
    let mut tags = std::collections::HashSet::new();
    for (name, msg, golden) in device_examples() {
        let frame = encode(&msg).unwrap();
        assert_eq!(hex(frame.as_bytes()), golden, "{name}");
        let mut body = unhex(golden);
        assert_eq!(body.pop(), Some(0), "{name}: ends with the delimiter");
        assert!(!body.contains(&0), "{name}: no zero inside a frame");
        assert_eq!(decode_frame::<DeviceMessage>(&mut body), Ok(msg), "{name}");
        tags.insert(std::mem::discriminant(&msg));
    }
    assert_eq!(tags.len(), 5, "every device message has a golden example");
    let mut tags = std::collections::HashSet::new();
    for (name, msg, golden) in host_examples() {
        let frame = encode(&msg).unwrap();
        assert_eq!(hex(frame.as_bytes()), golden, "{name}");
        let mut body = unhex(golden);
        body.pop();
        assert_eq!(decode_frame::<HostMessage>(&mut body), Ok(msg), "{name}");
        tags.insert(std::mem::discriminant(&msg));
    }
    assert_eq!(tags.len(), 3, "every host message has a golden example");
}

#[test]
fn golden_frames_are_cobs_of_header_postcard_and_crc() {
    // Roll result seq 1, by hand: version, 'D', tag 2, boot varint, seq 1, throw 1, die 0,
    // d6, 4, age 0.
    let body = [
        0x01, 0x44, 0x02, 0xf8, 0xac, 0xd1, 0x91, 0x01, 0x01, 0x01, 0x00, 0x06, 0x04, 0x00,
    ];
    let mut wire = framed(&body);
    wire.push(0);
    assert_eq!(hex(&wire), device_examples()[2].2);
    // Seq 300 (ac 02) of throw 299 (ab 02), die 2, d20, 17, age 18000 ms (d0 8c 01).
    let body = [
        0x01, 0x44, 0x02, 0xf8, 0xac, 0xd1, 0x91, 0x01, 0xac, 0x02, 0xab, 0x02, 0x02, 0x14, 0x11,
        0xd0, 0x8c, 0x01,
    ];
    let mut wire = framed(&body);
    wire.push(0);
    assert_eq!(hex(&wire), device_examples()[3].2);
    // The CRC is zlib's crc32: check value of "123456789".
    assert_eq!(FRAME_CRC.checksum(b"123456789"), 0xCBF4_3926);
}

#[test]
fn frames_fit_the_documented_maximum() {
    let biggest = DeviceMessage::Hello(Hello {
        protocol: u8::MAX,
        device: DeviceId(u64::MAX),
        boot: BootId(u32::MAX),
        firmware: FirmwareVersion {
            major: 255,
            minor: 255,
            patch: 255,
        },
        dice: DiceSet::new(&[255; MAX_DICE]).unwrap(),
        last_seq: u32::MAX,
        prev_boot: BootId(u32::MAX - 1),
        prev_last_seq: u32::MAX,
    });
    let frame = encode(&biggest).unwrap();
    assert!(frame.as_bytes().len() <= MAX_WIRE_FRAME);
    assert_eq!(
        frame.as_bytes().len(),
        60,
        "58 raw bytes, +1 COBS, +1 delimiter"
    );
}

#[test]
fn every_single_bit_flip_and_every_truncation_of_every_golden_frame_is_refused() {
    let mut refused = 0;
    let all: Vec<(&str, Vec<u8>, bool)> = device_examples()
        .into_iter()
        .map(|(n, _, g)| (n, unhex(g), true))
        .chain(
            host_examples()
                .into_iter()
                .map(|(n, _, g)| (n, unhex(g), false)),
        )
        .collect();
    for (name, wire, device) in &all {
        let mut damaged_frames = Vec::new();
        for i in 0..wire.len() {
            for bit in 0..8 {
                let mut d = wire.clone();
                d[i] ^= 1 << bit;
                damaged_frames.push(d);
            }
        }
        for keep in 1..wire.len() - 1 {
            // The first `keep` bytes, then a delimiter.
            let mut t = wire[..keep].to_vec();
            t.push(0);
            damaged_frames.push(t);
        }
        for d in damaged_frames {
            let mut decoder = FrameDecoder::new();
            for &b in &d {
                let ok = if *device {
                    decoder.push::<DeviceMessage>(b).map(|r| r.is_ok())
                } else {
                    decoder.push::<HostMessage>(b).map(|r| r.is_ok())
                };
                assert_ne!(ok, Some(true), "{name}: damaged frame {} accepted", hex(&d));
                if ok == Some(false) {
                    refused += 1;
                }
            }
        }
    }
    assert!(refused > 1000, "{refused}");
}

#[test]
fn each_kind_of_damage_gets_its_own_error() {
    // version, 'D', tag 2, boot, seq 1 (byte 8), throw 1 (byte 9), die 0, d6, value 4
    // (byte 12), age 0 (byte 13)
    let roll = [
        0x01, 0x44, 0x02, 0xf8, 0xac, 0xd1, 0x91, 0x01, 0x01, 0x01, 0x00, 0x06, 0x04, 0x00,
    ];
    let with = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = roll.to_vec();
        f(&mut b);
        decode_device(&framed(&b))
    };
    assert!(with(&|_| {}).is_ok());
    assert_eq!(with(&|b| b[0] = 2), Err(DecodeError::Version(2)));
    assert_eq!(with(&|b| b[1] = b'H'), Err(DecodeError::Direction(b'H')));
    assert_eq!(
        with(&|b| b[2] = 9),
        Err(DecodeError::Payload(PayloadError::UnknownTagOrValue))
    );
    assert_eq!(
        with(&|b| b.truncate(11)),
        Err(DecodeError::Payload(PayloadError::Truncated))
    );
    assert_eq!(
        with(&|b| b.push(0x55)),
        Err(DecodeError::Payload(PayloadError::NonCanonical))
    );
    // seq 1 written as a padded two-byte varint (0x81 0x00): same value, not canonical.
    assert_eq!(
        with(&|b| {
            b[8] = 0x81;
            b.insert(9, 0x00);
        }),
        Err(DecodeError::Payload(PayloadError::NonCanonical))
    );
    // The same for the throw.
    assert_eq!(
        with(&|b| {
            b[9] = 0x81;
            b.insert(10, 0x00);
        }),
        Err(DecodeError::Payload(PayloadError::NonCanonical))
    );
    assert_eq!(
        with(&|b| b[4..8].copy_from_slice(&[0xff, 0xff, 0xff, 0xff])),
        Err(DecodeError::Payload(PayloadError::BadVarint))
    );
    assert_eq!(
        with(&|b| b[12] = 7),
        Err(DecodeError::Invalid(InvalidField::RollValue))
    );
    assert_eq!(
        with(&|b| b[8] = 0),
        Err(DecodeError::Invalid(InvalidField::ZeroSeq))
    );
    // A throw of 0, or one newer than the die itself.
    assert_eq!(
        with(&|b| b[9] = 0),
        Err(DecodeError::Invalid(InvalidField::Throw))
    );
    assert_eq!(
        with(&|b| b[9] = 2),
        Err(DecodeError::Invalid(InvalidField::Throw))
    );
    // Seq 3 of throw 2: fine.
    assert!(
        with(&|b| {
            b[8] = 3;
            b[9] = 2;
        })
        .is_ok()
    );
    assert_eq!(
        decode_device(&framed(&[0x01])),
        Err(DecodeError::TooShort { len: 5 })
    );
    assert!(matches!(
        decode_device(&{
            let mut w = framed(&roll);
            let last = w.len() - 1;
            w[last] ^= 0x01;
            w
        }),
        Err(DecodeError::Crc { .. })
    ));
    // A COBS length byte pointing past the end.
    assert_eq!(decode_device(&[0x09, 0x01, 0x02]), Err(DecodeError::Cobs));
    assert_eq!(decode_device(&[0x55; 200]), Err(DecodeError::TooLong));
}

#[test]
fn a_device_frame_is_not_a_host_frame() {
    // An echo of the host's own ping must not be read as a message from the tower.
    let ping = encode(&HostMessage::Ping).unwrap();
    let mut body = ping.as_bytes()[..ping.as_bytes().len() - 1].to_vec();
    assert_eq!(
        decode_frame::<DeviceMessage>(&mut body),
        Err(DecodeError::Direction(b'H'))
    );
}

/// The fuzz seeds in `fuzz/seeds` are the golden frames (regenerate them when a golden frame
/// changes), plus a throw of two dice and some text lines.
#[test]
fn the_fuzz_seeds_are_the_golden_frames() {
    let seeds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds");
    let read = |name: &str| {
        std::fs::read(seeds.join(name)).unwrap_or_else(|e| panic!("fuzz seed {name}: {e}"))
    };
    let device = device_examples();
    let host = host_examples();
    let golden = |examples: &[(&str, Vec<u8>)], name: &str| {
        examples
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("no example {name}"))
            .1
            .clone()
    };
    let examples: Vec<(&str, Vec<u8>)> = device
        .iter()
        .map(|(n, _, g)| (*n, unhex(g)))
        .chain(host.iter().map(|(n, _, g)| (*n, unhex(g))))
        .collect();
    for (seed, example) in [
        ("hello", "hello"),
        ("roll_started", "roll started"),
        ("roll_result_1", "roll result, seq 1 (a die thrown alone)"),
        (
            "roll_result_300",
            "roll result, seq 300 (second die of throw 299, sent again 18 s after it settled)",
        ),
        ("heartbeat", "heartbeat"),
        ("fault_resend_unavailable", "fault: resend unavailable"),
        ("fault_1000", "fault: unknown code 1000"),
        ("ack", "ack"),
        ("ping", "ping"),
        ("resend_since_299", "resend since 299"),
        ("resend_since_0", "resend since (unknown boot) 0"),
    ] {
        assert_eq!(
            hex(&read(seed)),
            hex(&golden(&examples, example)),
            "fuzz/seeds/{seed}"
        );
    }
    // Two dice of one throw: seqs 2 and 3, both of throw 2.
    let mut decoder = FrameDecoder::new();
    let got: Vec<DeviceMessage> = read("throw_2d6")
        .iter()
        .filter_map(|&b| decoder.push::<DeviceMessage>(b))
        .map(Result::unwrap)
        .collect();
    let die = |seq, die, value| {
        DeviceMessage::RollResult(RollResult {
            boot: common::BOOT,
            seq,
            throw: 2,
            die,
            sides: 6,
            value,
            age_ms: 0,
        })
    };
    assert_eq!(got, vec![die(2, 0, 3), die(3, 1, 5)]);
    assert!(
        String::from_utf8(read("text_lines"))
            .unwrap()
            .contains("ROLL 2d6 3 5\n")
    );
    assert!(
        String::from_utf8(read("text_lines"))
            .unwrap()
            .contains("ROLL d20 17 #12 *59\n")
    );
}
