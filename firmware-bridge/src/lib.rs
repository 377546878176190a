//! The dice-tower wire protocol, the host link, and a simulated tower.
//!
//! A dice tower is a small microcontroller that watches dice fall and reports each settled
//! die over USB serial. This crate is both ends of that conversation:
//!
//! - [`message`], [`frame`], [`text`], [`tower`]: the protocol core. `no_std`, no allocator,
//!   no I/O: postcard messages in COBS frames with a CRC-32, the plain-text line mode for
//!   towers that can only print (with its optional line counter and CRC-8 check), and the
//!   tower's state machine as a reference for firmware.
//!   `PROTOCOL.md` at the workspace root specifies the bytes for firmware authors.
//! - `link` (feature `std`): the host side. A tokio task that opens the tower's port (or
//!   finds it by handshake), reconnects after an unplug, asks for missed rolls, drops
//!   duplicates, and hands out each roll exactly once, in order, with its throw time and link
//!   health for the UI; every roll it knows it will never get (a reset, an overflow) is
//!   reported lost by its sequence number. `link::simulate` runs the protocol on a simulated
//!   noisy line in simulated time.
//! - `sim` (feature `std`) and the `tower-sim` binary: a tower on a pseudo-terminal, with
//!   fault injection (noise, bit flips, truncation, duplicates, unplugging, resets; what a
//!   reset keeps and how long the history is are settings); `sim::proxy`, a protocol-blind
//!   fault injector for the serial line between any tower and the host, paced to a baud rate.
//!
//! The core builds without `std`; CI checks it with
//! `cargo check -p firmware-bridge --no-default-features`.
//!
//! ```
//! use firmware_bridge::frame::{encode, FrameDecoder};
//! use firmware_bridge::message::*;
//!
//! // The tower encodes a roll...
//! let roll = DeviceMessage::RollResult(RollResult {
//!     boot: BootId(0x1234_5678), seq: 1, throw: 1, die: 0, sides: 6, value: 4, age_ms: 0,
//! });
//! let wire = encode(&roll).unwrap();
//!
//! // ...and the host decodes it from the byte stream.
//! let mut decoder = FrameDecoder::new();
//! let got: Vec<_> = wire.as_bytes().iter().filter_map(|&b| decoder.push::<DeviceMessage>(b)).collect();
//! assert_eq!(got, vec![Ok(roll)]);
//! ```
#![cfg_attr(not(feature = "std"), no_std)]

pub mod frame;
pub mod message;
pub mod text;
pub mod tower;

#[cfg(feature = "std")]
pub mod link;
#[cfg(feature = "std")]
pub mod sim;

pub use frame::{DecodeError, EncodeError, FrameDecoder, WireFrame, decode_frame, encode};
pub use message::{
    Ack, BootId, DeviceId, DeviceMessage, DiceSet, Fault, FaultCode, FirmwareVersion, Heartbeat,
    Hello, HostMessage, InvalidField, PROTOCOL_VERSION, ResendSince, RollResult, RollStarted,
};
