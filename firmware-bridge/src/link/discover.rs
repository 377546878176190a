//! Finding the tower among the serial ports present, by plain directory listing (no udev).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Where to look for a tower. [`Discovery::default`] is the usual Linux layout:
/// `/dev/serial/by-id/*` first (stable names), then `/dev/ttyUSB*` (USB-UART bridges), then
/// `/dev/ttyACM*` (USB CDC devices, e.g. an RP2040 or an Arduino Leonardo).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discovery {
    /// Ports tried before anything else, in this order (e.g. the port that worked last time).
    pub first: Vec<PathBuf>,
    /// A directory of symlinks to ports, listed in name order (`/dev/serial/by-id`);
    /// `None` to skip.
    pub by_id_dir: Option<PathBuf>,
    /// The device directory scanned for `prefixes` (`/dev`); `None` to skip.
    pub dev_dir: Option<PathBuf>,
    /// Name prefixes of serial devices in `dev_dir`, in the order they are tried.
    pub prefixes: Vec<String>,
}

impl Default for Discovery {
    fn default() -> Self {
        Discovery {
            first: Vec::new(),
            by_id_dir: Some(PathBuf::from("/dev/serial/by-id")),
            dev_dir: Some(PathBuf::from("/dev")),
            prefixes: vec!["ttyUSB".to_owned(), "ttyACM".to_owned()],
        }
    }
}

/// Splits `ttyUSB10` into its prefix index and number, so `ttyUSB2` sorts before `ttyUSB10`.
fn dev_sort_key(name: &str, prefixes: &[String]) -> Option<(usize, u64, String)> {
    prefixes.iter().enumerate().find_map(|(i, p)| {
        let rest = name.strip_prefix(p.as_str())?;
        let n = if rest.is_empty() {
            0
        } else {
            rest.parse::<u64>().ok()?
        };
        Some((i, n, name.to_owned()))
    })
}

fn list_dir(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    paths
}

impl Discovery {
    /// Only the given ports, in this order (no directory scan).
    pub fn only(ports: Vec<PathBuf>) -> Discovery {
        Discovery {
            first: ports,
            by_id_dir: None,
            dev_dir: None,
            prefixes: Vec::new(),
        }
    }

    /// The candidate ports, in the order they should be tried, each device once (a by-id
    /// link and the device it points to count as one; the first name seen is kept). Names
    /// that do not resolve to an existing file are left out.
    pub fn candidates(&self) -> Vec<PathBuf> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        let mut consider = |p: PathBuf| {
            if let Ok(real) = std::fs::canonicalize(&p)
                && seen.insert(real)
            {
                out.push(p);
            }
        };
        for p in &self.first {
            consider(p.clone());
        }
        if let Some(dir) = &self.by_id_dir {
            for p in list_dir(dir) {
                consider(p);
            }
        }
        if let Some(dir) = &self.dev_dir {
            let mut devs: Vec<(usize, u64, String)> = list_dir(dir)
                .iter()
                .filter_map(|p| p.file_name()?.to_str())
                .filter_map(|name| dev_sort_key(name, &self.prefixes))
                .collect();
            devs.sort();
            for (_, _, name) in devs {
                consider(dir.join(name));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_id_first_then_usb_then_acm_in_numeric_order_each_device_once() {
        let dir = tempfile::tempdir().unwrap();
        let dev = dir.path().join("dev");
        let by_id = dir.path().join("by-id");
        std::fs::create_dir_all(&dev).unwrap();
        std::fs::create_dir_all(&by_id).unwrap();
        for name in ["ttyACM0", "ttyUSB10", "ttyUSB2", "ttyS0", "ttyUSBx", "null"] {
            std::fs::write(dev.join(name), b"").unwrap();
        }
        std::os::unix::fs::symlink(dev.join("ttyUSB10"), by_id.join("usb-Tower_123-if00")).unwrap();
        std::os::unix::fs::symlink(dev.join("gone"), by_id.join("usb-Dangling-if00")).unwrap();
        let d = Discovery {
            first: vec![dev.join("ttyACM0")],
            by_id_dir: Some(by_id.clone()),
            dev_dir: Some(dev.clone()),
            prefixes: vec!["ttyUSB".into(), "ttyACM".into()],
        };
        assert_eq!(
            d.candidates(),
            vec![
                dev.join("ttyACM0"),
                by_id.join("usb-Tower_123-if00"),
                dev.join("ttyUSB2"),
            ]
        );
    }

    #[test]
    fn missing_directories_give_no_candidates() {
        let d = Discovery {
            first: vec![PathBuf::from("/nonexistent/tty")],
            by_id_dir: Some(PathBuf::from("/nonexistent/by-id")),
            dev_dir: Some(PathBuf::from("/nonexistent/dev")),
            prefixes: vec!["ttyUSB".into()],
        };
        assert!(d.candidates().is_empty());
    }
}
