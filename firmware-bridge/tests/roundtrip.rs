//! Property tests: every valid message survives encode → decode, alone and in a noisy
//! stream; every invalid one is refused at encode time; the decoder never panics.
#![allow(clippy::unwrap_used)] // strategies build valid values

use firmware_bridge::frame::{FrameDecoder, MAX_WIRE_FRAME, encode};
use firmware_bridge::message::*;
use proptest::prelude::*;

fn boot() -> impl Strategy<Value = BootId> {
    (1..=u32::MAX).prop_map(BootId)
}

fn die_roll() -> impl Strategy<Value = (u8, u8)> {
    (MIN_SIDES..=u8::MAX).prop_flat_map(|sides| (Just(sides), 1..=sides))
}

/// A sequence number and a valid throw id for it (`1..=seq`): often the die's own (thrown
/// alone), often a close one (a die of a throw of several), sometimes anything.
fn seq_and_throw() -> impl Strategy<Value = (u32, u32)> {
    (1..=u32::MAX).prop_flat_map(|seq| {
        (
            Just(seq),
            prop_oneof![Just(seq), (seq.saturating_sub(15).max(1)..=seq), 1..=seq,],
        )
    })
}

fn device_message() -> impl Strategy<Value = DeviceMessage> {
    prop_oneof![
        (
            1..=u8::MAX,
            1..=u64::MAX,
            boot(),
            any::<(u8, u8, u8)>(),
            proptest::collection::vec(MIN_SIDES..=u8::MAX, 0..=MAX_DICE),
            any::<u32>(),
            any::<(u32, u32)>()
        )
            .prop_map(
                |(
                    protocol,
                    device,
                    boot,
                    (major, minor, patch),
                    dice,
                    last_seq,
                    (prev, prev_last),
                )| {
                    // A previous boot is another boot, or unknown (0, with no last roll).
                    let prev_boot = if prev == boot.0 { 0 } else { prev };
                    let prev_last_seq = if prev_boot == 0 { 0 } else { prev_last };
                    DeviceMessage::Hello(Hello {
                        protocol,
                        device: DeviceId(device),
                        boot,
                        firmware: FirmwareVersion {
                            major,
                            minor,
                            patch,
                        },
                        dice: DiceSet::new(&dice).unwrap(),
                        last_seq,
                        prev_boot: BootId(prev_boot),
                        prev_last_seq,
                    })
                }
            ),
        (boot(), any::<u8>())
            .prop_map(|(boot, dice)| DeviceMessage::RollStarted(RollStarted { boot, dice })),
        (
            boot(),
            seq_and_throw(),
            any::<u8>(),
            die_roll(),
            any::<u32>()
        )
            .prop_map(|(boot, (seq, throw), die, (sides, value), age_ms)| {
                DeviceMessage::RollResult(RollResult {
                    boot,
                    seq,
                    throw,
                    die,
                    sides,
                    value,
                    age_ms,
                })
            }),
        (boot(), any::<u32>(), any::<u32>()).prop_map(|(boot, last_seq, uptime_ms)| {
            DeviceMessage::Heartbeat(Heartbeat {
                boot,
                last_seq,
                uptime_ms,
            })
        }),
        (boot(), any::<u16>(), any::<u32>()).prop_map(|(boot, code, detail)| {
            DeviceMessage::Fault(Fault {
                boot,
                code: FaultCode::from(code),
                detail,
            })
        }),
    ]
}

fn host_message() -> impl Strategy<Value = HostMessage> {
    prop_oneof![
        (boot(), any::<u32>()).prop_map(|(boot, seq)| HostMessage::Ack(Ack { boot, seq })),
        Just(HostMessage::Ping),
        (any::<u32>(), any::<u32>()).prop_map(|(boot, seq)| HostMessage::ResendSince(
            ResendSince {
                boot: BootId(boot),
                seq
            }
        )),
    ]
}

fn decode_all<M: WireMessage>(bytes: &[u8]) -> Vec<M> {
    let mut d = FrameDecoder::new();
    bytes
        .iter()
        .filter_map(|&b| d.push::<M>(b))
        .filter_map(Result::ok)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        // Integration tests have no lib.rs beside them to store regressions next to.
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn device_messages_round_trip(msg in device_message()) {
        let frame = encode(&msg).unwrap();
        let bytes = frame.as_bytes();
        prop_assert!(bytes.len() <= MAX_WIRE_FRAME);
        prop_assert_eq!(bytes.last(), Some(&0));
        prop_assert!(!bytes[..bytes.len() - 1].contains(&0));
        prop_assert_eq!(decode_all::<DeviceMessage>(bytes), vec![msg]);
        // Never mistaken for the other direction.
        prop_assert!(decode_all::<HostMessage>(bytes).is_empty());
    }

    #[test]
    fn host_messages_round_trip(msg in host_message()) {
        let frame = encode(&msg).unwrap();
        prop_assert_eq!(decode_all::<HostMessage>(frame.as_bytes()), vec![msg]);
        prop_assert!(decode_all::<DeviceMessage>(frame.as_bytes()).is_empty());
    }

    /// Frames separated by noise: every frame whose noise ended with a delimiter survives,
    /// in order, and nothing else is decoded.
    #[test]
    fn frames_survive_noise_between_them(
        msgs in proptest::collection::vec(device_message(), 1..20),
        noise in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..80), 20),
    ) {
        let mut stream = Vec::new();
        for (msg, noise) in msgs.iter().zip(&noise) {
            stream.extend_from_slice(noise);
            stream.push(0); // the sender's resync delimiter
            stream.extend_from_slice(encode(msg).unwrap().as_bytes());
        }
        prop_assert_eq!(decode_all::<DeviceMessage>(&stream), msgs);
    }

    /// Arbitrary bytes: no panic, and (with overwhelming probability) nothing decoded.
    #[test]
    fn arbitrary_bytes_never_panic_nor_decode(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        prop_assert!(decode_all::<DeviceMessage>(&bytes).is_empty());
        prop_assert!(decode_all::<HostMessage>(&bytes).is_empty());
    }

    /// A valid frame with one byte changed to anything else is refused.
    #[test]
    fn any_single_byte_change_is_refused(msg in device_message(), at in any::<prop::sample::Index>(), to in any::<u8>()) {
        let frame = encode(&msg).unwrap();
        let mut bytes = frame.as_bytes().to_vec();
        let i = at.index(bytes.len());
        prop_assume!(bytes[i] != to);
        bytes[i] = to;
        bytes.push(0);
        prop_assert!(decode_all::<DeviceMessage>(&bytes).is_empty());
    }

    #[test]
    fn rolls_that_are_no_die_face_cannot_be_encoded(
        boot in boot(), seq in 1..=u32::MAX, sides in any::<u8>(), value in any::<u8>()
    ) {
        let roll = RollResult { boot, seq, throw: seq, die: 0, sides, value, age_ms: 0 };
        let valid = sides >= MIN_SIDES && value >= 1 && value <= sides;
        prop_assert_eq!(encode(&DeviceMessage::RollResult(roll)).is_ok(), valid);
    }

    /// The throw id survives the wire, and only `1..=seq` is a throw id.
    #[test]
    fn throw_ids_round_trip_and_only_1_to_seq_is_valid(
        boot in boot(), seq in 1..=u32::MAX, throw in any::<u32>(), (sides, value) in die_roll()
    ) {
        let msg = DeviceMessage::RollResult(RollResult { boot, seq, throw, die: 0, sides, value, age_ms: 0 });
        let valid = throw >= 1 && throw <= seq;
        match encode(&msg) {
            Ok(frame) => {
                prop_assert!(valid);
                prop_assert_eq!(decode_all::<DeviceMessage>(frame.as_bytes()), vec![msg]);
            }
            Err(_) => prop_assert!(!valid),
        }
    }
}
