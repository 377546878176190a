//! Feeds arbitrary bytes to the camera path's JPEG decoder (what a webcam's MJPEG stream or a
//! frame file holds): `vision::jpeg`'s baseline decoder. Checks more than "no panic": a picture
//! it takes has as many grey levels as its size says, and the portable code gives exactly the
//! same picture as the vector code (AVX2 here). What it refuses goes to zune-jpeg in
//! `luma::from_jpeg`, which is not fuzzed here: it can panic (the first run found
//! `Option::unwrap()` on `None` in its AVX2 IDCT in seconds), and `from_jpeg` contains it.
#![no_main]

use hardware::vision::jpeg;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Small pictures only, so that each run is quick; the limit is the caller's.
    let fast = jpeg::decode(data, 512);
    let portable = jpeg::decode_portable(data, 512);
    assert_eq!(fast, portable);
    if let Ok(luma) = &fast {
        assert_eq!(luma.pixels.len(), luma.width * luma.height);
        assert!(luma.width <= 512 && luma.height <= 512);
    }
});
