//! Frames: how one message becomes bytes on the wire, and back.
//!
//! ```text
//! raw frame  = version (1 byte) | direction (1 byte) | postcard(message) | CRC-32 (4 bytes, LE)
//! wire frame = COBS(raw frame) | 0x00
//! ```
//!
//! The CRC is CRC-32/ISO-HDLC (the one of zlib, Ethernet and PNG) over every raw byte before
//! it. COBS removes every zero byte from the frame, so `0x00` marks the end of a frame
//! and a receiver that lost its place (line noise, a cable plugged in mid-frame) finds the
//! next frame at the next zero. `PROTOCOL.md` at the workspace root specifies it to the byte.
//!
//! Decoding checks, in order: the frame fits [`MAX_RAW_FRAME`], COBS is well formed, the frame
//! holds at least a header and a CRC, the CRC matches, the version and the direction are
//! right, the message decodes, its encoding is canonical (re-encoding gives the same
//! bytes, so no trailing bytes and no padded varints), and its fields obey the rules
//! ([`crate::message::InvalidField`]). The first check that fails is the error.

use crc::{CRC_32_ISO_HDLC, Crc};

use crate::message::{InvalidField, PROTOCOL_VERSION, WireMessage};

/// The CRC of every frame: CRC-32/ISO-HDLC (poly 0x04C11DB7 reflected, init and xorout
/// 0xFFFFFFFF), as zlib's `crc32()`.
pub const FRAME_CRC: Crc<u32> = Crc::<u32>::new(&CRC_32_ISO_HDLC);

/// Bytes of header before the message: version and direction.
pub const HEADER_LEN: usize = 2;
/// Bytes of CRC after the message.
pub const CRC_LEN: usize = 4;
/// The longest raw (un-COBS'd) frame a receiver must accept. The longest message of
/// version 1 (a [`crate::message::Hello`] with 16 dice and every varint at full width) needs
/// 48 bytes.
pub const MAX_RAW_FRAME: usize = 64;
/// The longest wire frame: COBS adds one byte per 254 bytes (plus one), then the 0x00.
pub const MAX_WIRE_FRAME: usize = MAX_RAW_FRAME + MAX_RAW_FRAME / 254 + 2;

/// Why a frame could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// The message breaks a field rule; it would be refused by the receiver.
    #[error("message breaks a field rule: {0}")]
    Invalid(#[from] InvalidField),
    /// The output buffer cannot hold the frame (give it [`MAX_WIRE_FRAME`] bytes).
    #[error("output buffer too small for the frame")]
    BufferTooSmall,
}

/// How a message failed to deserialize although its frame's CRC was right (which means the
/// sender has a bug or speaks another version).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PayloadError {
    /// The message ended before its last field.
    Truncated,
    /// A varint was longer than its type allows.
    BadVarint,
    /// An unknown message tag, or a field value serde refused (a dice list too long, …).
    UnknownTagOrValue,
    /// The bytes decode, but are not the canonical encoding of what they decode to
    /// (bytes left over after the message, or a varint padded with `0x80` bytes).
    NonCanonical,
    /// Any other postcard error.
    Other,
}

impl core::fmt::Display for PayloadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            PayloadError::Truncated => "message ends before its last field",
            PayloadError::BadVarint => "varint too long for its type",
            PayloadError::UnknownTagOrValue => "unknown message tag or refused field value",
            PayloadError::NonCanonical => "not the canonical encoding (extra bytes or padding)",
            PayloadError::Other => "malformed message",
        })
    }
}

impl From<postcard::Error> for PayloadError {
    fn from(e: postcard::Error) -> PayloadError {
        match e {
            postcard::Error::DeserializeUnexpectedEnd => PayloadError::Truncated,
            postcard::Error::DeserializeBadVarint => PayloadError::BadVarint,
            postcard::Error::SerdeDeCustom | postcard::Error::DeserializeBadEnum => {
                PayloadError::UnknownTagOrValue
            }
            _ => PayloadError::Other,
        }
    }
}

/// Why a received frame was refused. Every variant means "drop this frame"; none of them
/// stops the stream: the next frame starts after the next `0x00`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum DecodeError {
    /// More than [`MAX_RAW_FRAME`] bytes arrived without a `0x00` (noise, or a stream that
    /// is not this protocol). Everything up to the next `0x00` was dropped.
    #[error("frame longer than {MAX_RAW_FRAME} bytes")]
    TooLong,
    /// The COBS encoding is broken (a length byte points past the end of the frame).
    #[error("broken COBS encoding")]
    Cobs,
    /// Fewer bytes than a header and a CRC.
    #[error("frame of {len} bytes is too short")]
    TooShort {
        /// The decoded length.
        len: usize,
    },
    /// The CRC does not match: the frame was damaged on the way (or is noise).
    #[error("CRC mismatch: frame says {received:#010x}, bytes give {computed:#010x}")]
    Crc {
        /// The CRC carried by the frame.
        received: u32,
        /// The CRC of the bytes received.
        computed: u32,
    },
    /// An intact frame of a protocol version this crate does not speak.
    #[error("protocol version {0} is not supported (this host speaks {PROTOCOL_VERSION})")]
    Version(u8),
    /// An intact frame meant for the other direction (an echo of our own frame, e.g. a serial
    /// port left in echo mode).
    #[error("frame has direction byte {0:#04x}, expected the other direction")]
    Direction(u8),
    /// An intact frame whose message does not deserialize.
    #[error("bad message: {0}")]
    Payload(PayloadError),
    /// An intact, well-formed message that breaks a field rule.
    #[error("invalid field: {0}")]
    Invalid(InvalidField),
}

/// One encoded wire frame (COBS bytes and the final `0x00`), kept inline so encoding never
/// allocates.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct WireFrame {
    buf: [u8; MAX_WIRE_FRAME],
    len: usize,
}

impl WireFrame {
    /// The bytes to write to the port, ending in `0x00`.
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }
}

impl core::fmt::Debug for WireFrame {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for b in self.as_bytes() {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// Builds the raw frame (header, message, CRC) of `msg` into `raw`, returning its length.
fn encode_raw<M: WireMessage>(
    msg: &M,
    raw: &mut [u8; MAX_RAW_FRAME],
) -> Result<usize, EncodeError> {
    msg.validate()?;
    raw[0] = PROTOCOL_VERSION;
    raw[1] = M::DIRECTION;
    let body = raw
        .get_mut(HEADER_LEN..MAX_RAW_FRAME - CRC_LEN)
        .ok_or(EncodeError::BufferTooSmall)?;
    let body_len = postcard::to_slice(msg, body)
        .map_err(|_| EncodeError::BufferTooSmall)?
        .len();
    let crc_at = HEADER_LEN + body_len;
    let crc = FRAME_CRC.checksum(raw.get(..crc_at).ok_or(EncodeError::BufferTooSmall)?);
    raw.get_mut(crc_at..crc_at + CRC_LEN)
        .ok_or(EncodeError::BufferTooSmall)?
        .copy_from_slice(&crc.to_le_bytes());
    Ok(crc_at + CRC_LEN)
}

/// Encodes `msg` as a wire frame into `out` and returns the number of bytes written
/// (the frame ends with its `0x00`).
///
/// # Errors
/// [`EncodeError::Invalid`] if the message breaks a field rule, [`EncodeError::BufferTooSmall`]
/// if `out` is shorter than the frame.
pub fn encode_into<M: WireMessage>(msg: &M, out: &mut [u8]) -> Result<usize, EncodeError> {
    let mut raw = [0u8; MAX_RAW_FRAME];
    let raw_len = encode_raw(msg, &mut raw)?;
    let raw = raw.get(..raw_len).ok_or(EncodeError::BufferTooSmall)?;
    if out.len() < cobs::max_encoding_length(raw_len) + 1 {
        return Err(EncodeError::BufferTooSmall);
    }
    let n = cobs::try_encode(raw, out).map_err(|_| EncodeError::BufferTooSmall)?;
    *out.get_mut(n).ok_or(EncodeError::BufferTooSmall)? = 0;
    Ok(n + 1)
}

/// Encodes `msg` as a wire frame.
///
/// # Errors
/// [`EncodeError::Invalid`] if the message breaks a field rule.
pub fn encode<M: WireMessage>(msg: &M) -> Result<WireFrame, EncodeError> {
    let mut frame = WireFrame {
        buf: [0; MAX_WIRE_FRAME],
        len: 0,
    };
    frame.len = encode_into(msg, &mut frame.buf)?;
    Ok(frame)
}

/// Decodes one frame: the COBS bytes between two `0x00` delimiters (without them). The
/// bytes are decoded in place, so `frame` is scratch afterwards.
///
/// # Errors
/// The first check that failed (see the module docs); never panics, whatever the bytes.
pub fn decode_frame<M: WireMessage>(frame: &mut [u8]) -> Result<M, DecodeError> {
    if frame.len() > cobs::max_encoding_length(MAX_RAW_FRAME) {
        return Err(DecodeError::TooLong);
    }
    if frame.contains(&0) {
        // Only possible when a caller hands us an undelimited buffer.
        return Err(DecodeError::Cobs);
    }
    let len = cobs::decode_in_place(frame).map_err(|_| DecodeError::Cobs)?;
    let raw = frame.get(..len).ok_or(DecodeError::Cobs)?;
    decode_raw(raw)
}

/// Decodes one raw frame (after COBS): header, message, CRC.
///
/// # Errors
/// As [`decode_frame`], without the COBS step.
pub fn decode_raw<M: WireMessage>(raw: &[u8]) -> Result<M, DecodeError> {
    let len = raw.len();
    if len > MAX_RAW_FRAME {
        return Err(DecodeError::TooLong);
    }
    if len < HEADER_LEN + CRC_LEN {
        return Err(DecodeError::TooShort { len });
    }
    let (covered, crc_bytes) = raw.split_at(len - CRC_LEN);
    let mut received = [0u8; CRC_LEN];
    received.copy_from_slice(crc_bytes);
    let received = u32::from_le_bytes(received);
    let computed = FRAME_CRC.checksum(covered);
    if received != computed {
        return Err(DecodeError::Crc { received, computed });
    }
    let (header, body) = covered.split_at(HEADER_LEN);
    let (version, direction) = match header {
        [v, d] => (*v, *d),
        _ => return Err(DecodeError::TooShort { len }),
    };
    if version != PROTOCOL_VERSION {
        return Err(DecodeError::Version(version));
    }
    if direction != M::DIRECTION {
        return Err(DecodeError::Direction(direction));
    }
    let (msg, rest): (M, &[u8]) =
        postcard::take_from_bytes(body).map_err(|e| DecodeError::Payload(e.into()))?;
    // Canonical form only: the same message must encode to exactly these bytes.
    let mut again = [0u8; MAX_RAW_FRAME];
    let again = postcard::to_slice(&msg, &mut again)
        .map_err(|_| DecodeError::Payload(PayloadError::NonCanonical))?;
    if !rest.is_empty() || &again[..] != body {
        return Err(DecodeError::Payload(PayloadError::NonCanonical));
    }
    msg.validate().map_err(DecodeError::Invalid)?;
    Ok(msg)
}

/// Splits a byte stream into frames and decodes them; keeps at most one frame of state, so
/// it fits a microcontroller.
///
/// Feed it bytes as they arrive; every `0x00` completes a frame. Empty frames (two `0x00`
/// in a row, which senders may use to resynchronise) are skipped silently.
///
/// ```
/// use firmware_bridge::frame::{FrameDecoder, encode};
/// use firmware_bridge::message::HostMessage;
///
/// let frame = encode(&HostMessage::Ping).unwrap();
/// let mut noisy = vec![0x13, 0x37, 0x00]; // noise, then a delimiter
/// noisy.extend_from_slice(frame.as_bytes());
///
/// let mut decoder = FrameDecoder::new();
/// let results: Vec<_> = noisy.iter().filter_map(|&b| decoder.push::<HostMessage>(b)).collect();
/// assert!(results[0].is_err()); // the noise, refused
/// assert_eq!(results[1], Ok(HostMessage::Ping));
/// ```
#[derive(Clone)]
pub struct FrameDecoder {
    buf: [u8; MAX_WIRE_FRAME],
    len: usize,
    overflowed: bool,
}

impl Default for FrameDecoder {
    fn default() -> Self {
        FrameDecoder::new()
    }
}

impl FrameDecoder {
    /// A decoder waiting for the first frame.
    pub const fn new() -> FrameDecoder {
        FrameDecoder {
            buf: [0; MAX_WIRE_FRAME],
            len: 0,
            overflowed: false,
        }
    }

    /// Forgets a partly received frame (call after a reconnect).
    pub fn reset(&mut self) {
        self.len = 0;
        self.overflowed = false;
    }

    /// Takes one byte; returns the outcome when the byte completes a non-empty frame.
    pub fn push<M: WireMessage>(&mut self, byte: u8) -> Option<Result<M, DecodeError>> {
        if byte != 0 {
            match self.buf.get_mut(self.len) {
                Some(slot) if !self.overflowed => {
                    *slot = byte;
                    self.len += 1;
                }
                _ => self.overflowed = true,
            }
            return None;
        }
        let overflowed = self.overflowed;
        let len = self.len;
        self.reset();
        if overflowed {
            return Some(Err(DecodeError::TooLong));
        }
        if len == 0 {
            return None;
        }
        let frame = self.buf.get_mut(..len)?;
        Some(decode_frame(frame))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Ack, BootId, HostMessage};

    #[test]
    fn max_lengths_agree_with_cobs() {
        assert!(cobs::max_encoding_length(MAX_RAW_FRAME) < MAX_WIRE_FRAME);
    }

    #[test]
    fn round_trip_and_every_single_bit_flip_is_refused() {
        let msg = HostMessage::Ack(Ack {
            boot: BootId(0xDEAD_BEEF),
            seq: 300,
        });
        let frame = encode(&msg).unwrap();
        let bytes = frame.as_bytes();
        let mut body = bytes[..bytes.len() - 1].to_vec();
        assert_eq!(decode_frame::<HostMessage>(&mut body), Ok(msg));
        for i in 0..bytes.len() {
            for bit in 0..8 {
                let mut damaged = bytes.to_vec();
                damaged[i] ^= 1 << bit;
                let mut d = FrameDecoder::new();
                for &b in &damaged {
                    if let Some(r) = d.push::<HostMessage>(b) {
                        assert!(r.is_err(), "flip {i}.{bit} accepted: {r:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn overlong_frame_is_refused_and_stream_recovers() {
        let mut d = FrameDecoder::new();
        for _ in 0..1000 {
            assert!(d.push::<HostMessage>(0x55).is_none());
        }
        assert_eq!(d.push::<HostMessage>(0), Some(Err(DecodeError::TooLong)));
        for &b in encode(&HostMessage::Ping).unwrap().as_bytes() {
            if let Some(r) = d.push::<HostMessage>(b) {
                assert_eq!(r, Ok(HostMessage::Ping));
            }
        }
    }
}
