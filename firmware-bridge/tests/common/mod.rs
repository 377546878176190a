//! The worked examples of `PROTOCOL.md` section 7, shared by the golden and doc tests.

#![allow(clippy::unwrap_used)] // test helpers
// Each test binary uses some of these.
#![allow(dead_code)]

use std::time::Duration;

use firmware_bridge::link::{Link, LinkConfig, LinkState, PortChoice, StartFrom};
use firmware_bridge::message::*;

/// Link timings scaled for tests (a real tower gets the defaults), rolls held before the
/// link met the tower included.
pub fn link_config(port: PortChoice) -> LinkConfig {
    LinkConfig {
        start: StartFrom::Held,
        backoff_initial: Duration::from_millis(20),
        backoff_max: Duration::from_millis(200),
        ping_retry: Duration::from_millis(100),
        handshake_pings: 3,
        resend_retry: Duration::from_millis(60),
        silence_timeout: Duration::from_millis(1000),
        ..LinkConfig::with_port(port)
    }
}

/// Waits until the link is connected; false after `within`.
pub async fn wait_connected(link: &Link, within: Duration) -> bool {
    let mut health = link.watch_health();
    tokio::time::timeout(within, health.wait_for(|h| h.state == LinkState::Connected))
        .await
        .is_ok_and(|r| r.is_ok())
}

pub const BOOT: BootId = BootId(0x1234_5678);

pub fn device_examples() -> Vec<(&'static str, DeviceMessage, &'static str)> {
    vec![
        (
            "hello",
            DeviceMessage::Hello(Hello {
                protocol: 1,
                device: DeviceId(0x7AB1_E51D_E000_0001),
                boot: BOOT,
                firmware: FirmwareVersion {
                    major: 1,
                    minor: 2,
                    patch: 3,
                },
                dice: DiceSet::new(&[6, 6, 20]).unwrap(),
                last_seq: 0,
                prev_boot: BootId(0x0BAD_CAFE),
                prev_last_seq: 41,
            }),
            "03 01 44 17 01 81 80 80 80 de a3 f9 d8 7a f8 ac d1 91 01 01 02 03 03 06 06 14 0a fe 95 b7 5d 29 e3 7e 31 a7 00",
        ),
        (
            "roll started",
            DeviceMessage::RollStarted(RollStarted {
                boot: BOOT,
                dice: 2,
            }),
            "0e 01 44 01 f8 ac d1 91 01 02 fb 72 e8 23 00",
        ),
        (
            "roll result, seq 1 (a die thrown alone)",
            DeviceMessage::RollResult(RollResult {
                boot: BOOT,
                seq: 1,
                throw: 1,
                die: 0,
                sides: 6,
                value: 4,
                age_ms: 0,
            }),
            "0b 01 44 02 f8 ac d1 91 01 01 01 03 06 04 05 67 38 23 8d 00",
        ),
        (
            "roll result, seq 300 (second die of throw 299, sent again 18 s after it settled)",
            DeviceMessage::RollResult(RollResult {
                boot: BOOT,
                seq: 300,
                throw: 299,
                die: 2,
                sides: 20,
                value: 17,
                age_ms: 18_000,
            }),
            "17 01 44 02 f8 ac d1 91 01 ac 02 ab 02 02 14 11 d0 8c 01 5b 7e 0a 20 00",
        ),
        (
            "heartbeat",
            DeviceMessage::Heartbeat(Heartbeat {
                boot: BOOT,
                last_seq: 300,
                uptime_ms: 61_000,
            }),
            "12 01 44 03 f8 ac d1 91 01 ac 02 c8 dc 03 fe b6 dc 05 00",
        ),
        (
            "fault: resend unavailable",
            DeviceMessage::Fault(Fault {
                boot: BOOT,
                code: FaultCode::ResendUnavailable,
                detail: 42,
            }),
            "0f 01 44 04 f8 ac d1 91 01 04 2a 5f 4c 4f 3d 00",
        ),
        (
            "fault: unknown code 1000",
            DeviceMessage::Fault(Fault {
                boot: BOOT,
                code: FaultCode::Other(1000),
                detail: 0,
            }),
            "0b 01 44 04 f8 ac d1 91 01 e8 07 05 8f 9f 39 a9 00",
        ),
    ]
}

pub fn host_examples() -> Vec<(&'static str, HostMessage, &'static str)> {
    vec![
        (
            "ack",
            HostMessage::Ack(Ack {
                boot: BOOT,
                seq: 300,
            }),
            "03 01 48 0c f8 ac d1 91 01 ac 02 aa 2f 5a 0c 00",
        ),
        ("ping", HostMessage::Ping, "08 01 48 01 be 46 24 b1 00"),
        (
            "resend since 299",
            HostMessage::ResendSince(ResendSince {
                boot: BOOT,
                seq: 299,
            }),
            "0f 01 48 02 f8 ac d1 91 01 ab 02 10 be 3e 01 00",
        ),
        (
            "resend since (unknown boot) 0",
            HostMessage::ResendSince(ResendSince {
                boot: BootId(0),
                seq: 0,
            }),
            "04 01 48 02 01 05 11 7a 66 a6 00",
        ),
    ]
}

pub fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn unhex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|h| u8::from_str_radix(h, 16).unwrap())
        .collect()
}
