//! `PROTOCOL.md` is checked, not trusted: its example table must list the frames this crate
//! encodes, its C reference code (section 8) is compiled with the system C compiler and
//! must build the same frames and accept or refuse the same host frames as the Rust decoder,
//! and its Arduino line-mode sketch (section 9) is built with the system C++ compiler and a
//! stand-in `Serial`, and its output read by the host's line parser.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test helpers

use std::path::{Path, PathBuf};
use std::process::Command;

use firmware_bridge::frame::{FRAME_CRC, decode_frame, encode};
use firmware_bridge::message::HostMessage;

mod common;

use common::{device_examples, hex, host_examples, unhex};

fn protocol_md() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../PROTOCOL.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The hex frames in the examples table of section 7, in order.
fn doc_frames(doc: &str) -> Vec<String> {
    let section = doc
        .split("## 7. Worked examples")
        .nth(1)
        .and_then(|s| s.split("## 8.").next())
        .expect("section 7");
    section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| example"))
        .filter_map(|l| l.rsplit('`').nth(1).map(str::to_owned))
        .collect()
}

#[test]
fn the_example_table_lists_the_golden_frames() {
    let doc = protocol_md();
    let documented = doc_frames(&doc);
    let encoded: Vec<String> = device_examples()
        .iter()
        .map(|(_, m, _)| hex(encode(m).unwrap().as_bytes()))
        .chain(
            host_examples()
                .iter()
                .map(|(_, m, _)| hex(encode(m).unwrap().as_bytes())),
        )
        .collect();
    assert_eq!(documented, encoded);
}

const C_MAIN: &str = r#"
#include <stdio.h>
#include <stdlib.h>

static void print_frame(const uint8_t *w, size_t n) {
    for (size_t i = 0; i < n; i++) printf("%s%02x", i ? " " : "", w[i]);
    printf("\n");
}

int main(int argc, char **argv) {
    uint8_t w[TS_MAX_WIRE];
    const uint8_t fw[3] = {1, 2, 3};
    const uint8_t dice[3] = {6, 6, 20};
    const uint32_t boot = 0x12345678u;
    print_frame(w, ts_hello(0x7AB1E51DE0000001ull, boot, fw, dice, 3, 0, 0x0BADCAFEu, 41, w));
    print_frame(w, ts_roll_started(boot, 2, w));
    print_frame(w, ts_roll_result(boot, 1, 1, 0, 6, 4, 0, w));
    print_frame(w, ts_roll_result(boot, 300, 299, 2, 20, 17, 18000, w));
    print_frame(w, ts_heartbeat(boot, 300, 61000, w));
    print_frame(w, ts_fault(boot, 4, 42, w));
    print_frame(w, ts_fault(boot, 1000, 0, w));
    /* Each argument: a host frame in hex, without its delimiter. */
    for (int a = 1; a < argc; a++) {
        uint8_t buf[512];
        size_t n = 0;
        for (const char *s = argv[a]; s[0] && s[1] && n < sizeof buf; s += 2)
            buf[n++] = (uint8_t)strtoul((char[]){s[0], s[1], 0}, NULL, 16);
        ts_host_msg m;
        if (ts_parse_host(buf, n, &m) == 0)
            printf("%u %u %u\n", (unsigned)m.kind, (unsigned)m.boot, (unsigned)m.seq);
        else
            printf("refused\n");
    }
    return 0;
}
"#;

/// Compiles `src` into `exe` with warnings as errors; `what` names the code in the failure.
fn build(compiler: &str, flags: &[&str], src: &Path, exe: &Path, what: &str) {
    let out = Command::new(compiler)
        .args(flags)
        .args(["-O1", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(exe)
        .arg(src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{what} of PROTOCOL.md does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn c_compiler() -> Option<String> {
    ["cc", "gcc", "clang"]
        .into_iter()
        .find(|cc| Command::new(cc).arg("--version").output().is_ok())
        .map(str::to_owned)
}

/// What the Rust decoder says about a host frame, in the C program's format.
fn rust_verdict(frame: &[u8]) -> String {
    let mut f = frame.to_vec();
    match decode_frame::<HostMessage>(&mut f) {
        Ok(HostMessage::Ack(a)) => format!("0 {} {}", a.boot.0, a.seq),
        Ok(HostMessage::Ping) => "1 0 0".to_owned(),
        Ok(HostMessage::ResendSince(r)) => format!("2 {} {}", r.boot.0, r.seq),
        Err(_) => "refused".to_owned(),
    }
}

/// Host frames for the C parser: the golden ones, every single-bit flip of them, and
/// well-checksummed frames that break a rule (padded varint, trailing byte, unknown tag,
/// wrong direction, ack of boot 0).
fn host_frames() -> Vec<Vec<u8>> {
    let cobs = |raw: &[u8]| {
        let mut out = vec![0u8];
        let mut code_at = 0;
        for &b in raw {
            if b == 0 {
                out[code_at] = (out.len() - code_at) as u8;
                code_at = out.len();
                out.push(0);
            } else {
                out.push(b);
            }
        }
        out[code_at] = (out.len() - code_at) as u8;
        out
    };
    let framed = |body: &[u8]| {
        let mut raw = body.to_vec();
        raw.extend_from_slice(&FRAME_CRC.checksum(body).to_le_bytes());
        cobs(&raw)
    };
    let mut frames = Vec::new();
    for (_, _, golden) in host_examples() {
        let mut wire = unhex(golden);
        wire.pop();
        for i in 0..wire.len() {
            for bit in 0..8 {
                let mut d = wire.clone();
                d[i] ^= 1 << bit;
                // A flip that makes a 0x00 would split the frame; the receive loop does that.
                if !d.contains(&0) {
                    frames.push(d);
                }
            }
        }
        frames.push(wire);
    }
    frames.push(framed(&[0x01, 0x48, 0x00, 0x81, 0x00, 0x05])); // boot 1 padded
    frames.push(framed(&[0x01, 0x48, 0x00, 0x01, 0x05, 0x00])); // trailing byte
    frames.push(framed(&[0x01, 0x48, 0x03])); // tag 3
    frames.push(framed(&[0x01, 0x44, 0x01])); // a device frame
    frames.push(framed(&[0x01, 0x48, 0x00, 0x00, 0x05])); // ack of boot 0
    frames.push(framed(&[0x02, 0x48, 0x01])); // version 2
    frames.push(framed(&[
        0x01, 0x48, 0x00, 0xff, 0xff, 0xff, 0xff, 0x1f, 0x01,
    ])); // > u32
    frames.push(framed(&[0x01, 0x48, 0x02, 0x00, 0x00])); // resend since, boot 0: valid
    frames
}

#[test]
fn the_c_reference_code_agrees_with_the_crate() {
    if std::env::var_os("SKIP_C_REFERENCE").is_some() {
        eprintln!("SKIP_C_REFERENCE set: C reference not checked");
        return;
    }
    let cc = c_compiler().expect("a C compiler (cc) to check PROTOCOL.md's C code");
    let doc = protocol_md();
    let code: String = doc
        .split("```c\n")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .collect();
    assert!(code.contains("ts_parse_host"), "C code block not found");
    let dir = tempfile::tempdir().unwrap();
    let src: PathBuf = dir.path().join("tower.c");
    let exe: PathBuf = dir.path().join("tower");
    std::fs::write(&src, format!("{code}\n{C_MAIN}")).unwrap();
    build(&cc, &["-std=c99", "-pedantic"], &src, &exe, "the C code");

    let frames = host_frames();
    let run = Command::new(&exe)
        .args(
            frames
                .iter()
                .map(|f| f.iter().map(|b| format!("{b:02x}")).collect::<String>()),
        )
        .output()
        .unwrap();
    assert!(run.status.success());
    let stdout = String::from_utf8(run.stdout).unwrap();
    let mut lines = stdout.lines();
    for (name, msg, golden) in device_examples() {
        assert_eq!(lines.next(), Some(golden), "C encoding of {name}");
        assert_eq!(hex(encode(&msg).unwrap().as_bytes()), golden);
    }
    let mut refused = 0;
    for frame in &frames {
        let c = lines.next().unwrap();
        assert_eq!(c, rust_verdict(frame), "frame {}", hex(frame));
        refused += usize::from(c == "refused");
    }
    assert_eq!(lines.next(), None);
    assert!(refused > 300, "{refused}");
}

const ARDUINO_SHIM: &str = r#"
#include <cstdio>
#include <cstdint>
struct SerialShim {
    void begin(long) {}
    void println(const char *s) { std::fputs(s, stdout); std::fputs("\r\n", stdout); }
} Serial;
static const int faces[] = {4, 0, 6, 1, 3, 5, 2, 6, 0, 6, 1};
static unsigned next_face = 0;
int readDie() { return next_face < sizeof faces / sizeof faces[0] ? faces[next_face++] : 0; }
"#;

const ARDUINO_MAIN: &str = r#"
int main() {
    setup();
    for (int k = 0; k < 11; k++) loop();
    return 0;
}
"#;

#[test]
fn the_arduino_line_mode_sketch_prints_lines_the_host_accepts() {
    if std::env::var_os("SKIP_C_REFERENCE").is_some() {
        eprintln!("SKIP_C_REFERENCE set: Arduino sketch not checked");
        return;
    }
    let cxx = ["c++", "g++", "clang++"]
        .into_iter()
        .find(|cc| Command::new(cc).arg("--version").output().is_ok())
        .expect("a C++ compiler (c++) to check PROTOCOL.md's Arduino sketch");
    let doc = protocol_md();
    let sketch = doc
        .split("```cpp\n")
        .nth(1)
        .and_then(|block| block.split("```").next())
        .expect("the Arduino sketch in section 9");
    let code_lines = sketch.lines().filter(|l| !l.trim().is_empty()).count();
    assert!(
        code_lines <= 16,
        "the sketch is meant to be short: {code_lines} lines"
    );
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("tower.cpp");
    let exe = dir.path().join("tower");
    std::fs::write(&src, format!("{ARDUINO_SHIM}\n{sketch}\n{ARDUINO_MAIN}")).unwrap();
    build(cxx, &["-std=c++11"], &src, &exe, "the Arduino sketch");
    let run = Command::new(&exe).output().unwrap();
    assert!(run.status.success());
    let mut decoder = firmware_bridge::text::LineDecoder::new();
    let lines: Vec<_> = run
        .stdout
        .iter()
        .filter_map(|&b| decoder.push(b))
        .map(|r| r.unwrap().unwrap())
        .collect();
    let got: Vec<(Option<u32>, bool, Vec<u8>)> = lines
        .iter()
        .map(|l| (l.counter, l.checked, l.throw.values().to_vec()))
        .collect();
    let faces = [4u8, 6, 1, 3, 5, 2, 6, 6, 1];
    let want: Vec<(Option<u32>, bool, Vec<u8>)> = faces
        .iter()
        .zip(1u32..)
        .map(|(&f, n)| (Some(n), true, vec![f]))
        .collect();
    assert_eq!(got, want);
    // `Serial.println` ends a line with "\r\n"; the host ignores the "\r".
    assert!(
        run.stdout.starts_with(b"ROLL d6 4 #1 *C8\r\n"),
        "the sketch's comment shows its first line"
    );
}
