//! Plane-to-plane maps: the homography from one quadrilateral to another.

/// A point in pixels or millimetres: `(x, y)`.
pub type Point = (f64, f64);

/// A projective map of the plane (a 3 × 3 matrix with the last entry 1), e.g. from mat
/// millimetres to frame pixels, or from a QR code's module grid to frame pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Homography {
    /// Row-major `[a b c; d e f; g h 1]`.
    pub m: [f64; 9],
}

impl Homography {
    /// The identity map.
    pub const IDENTITY: Homography = Homography {
        m: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
    };

    /// The map that sends each `from[i]` to `to[i]`; `None` if three of the points are on one
    /// line (no such map).
    pub fn from_points(from: [Point; 4], to: [Point; 4]) -> Option<Homography> {
        // Unknowns a b c d e f g h; for each pair:
        // a x + b y + c - g x X - h y X = X
        // d x + e y + f - g x Y - h y Y = Y
        let mut rows = [[0.0f64; 9]; 8];
        for i in 0..4 {
            let (x, y) = from[i];
            let (tx, ty) = to[i];
            rows[2 * i] = [x, y, 1.0, 0.0, 0.0, 0.0, -x * tx, -y * tx, tx];
            rows[2 * i + 1] = [0.0, 0.0, 0.0, x, y, 1.0, -x * ty, -y * ty, ty];
        }
        let sol = solve8(rows)?;
        Some(Homography {
            m: [
                sol[0], sol[1], sol[2], sol[3], sol[4], sol[5], sol[6], sol[7], 1.0,
            ],
        })
    }

    /// An affine map: scale `s`, rotation `angle` (radians, clockwise on screen, as y points
    /// down), then translation `t`.
    pub fn similarity(s: f64, angle: f64, t: Point) -> Homography {
        let (sin, cos) = angle.sin_cos();
        Homography {
            m: [s * cos, -s * sin, t.0, s * sin, s * cos, t.1, 0.0, 0.0, 1.0],
        }
    }

    /// Where `p` goes; `None` for a point on the line sent to infinity.
    pub fn map(&self, p: Point) -> Option<Point> {
        let m = &self.m;
        let w = m[6] * p.0 + m[7] * p.1 + m[8];
        if w.abs() < 1e-12 {
            return None;
        }
        Some((
            (m[0] * p.0 + m[1] * p.1 + m[2]) / w,
            (m[3] * p.0 + m[4] * p.1 + m[5]) / w,
        ))
    }

    /// The inverse map; `None` if this one is degenerate.
    pub fn inverse(&self) -> Option<Homography> {
        let m = &self.m;
        let c00 = m[4] * m[8] - m[5] * m[7];
        let c01 = m[5] * m[6] - m[3] * m[8];
        let c02 = m[3] * m[7] - m[4] * m[6];
        let det = m[0] * c00 + m[1] * c01 + m[2] * c02;
        if det.abs() < 1e-12 {
            return None;
        }
        let inv = [
            c00,
            m[2] * m[7] - m[1] * m[8],
            m[1] * m[5] - m[2] * m[4],
            c01,
            m[0] * m[8] - m[2] * m[6],
            m[2] * m[3] - m[0] * m[5],
            c02,
            m[1] * m[6] - m[0] * m[7],
            m[0] * m[4] - m[1] * m[3],
        ];
        let last = inv[8] / det;
        if last.abs() < 1e-12 {
            return Some(Homography {
                m: inv.map(|v| v / det),
            });
        }
        Some(Homography {
            m: inv.map(|v| v / det / last),
        })
    }

    /// First `self`, then `next`.
    pub fn then(&self, next: &Homography) -> Homography {
        let a = &next.m;
        let b = &self.m;
        let mut m = [0.0; 9];
        for r in 0..3 {
            for c in 0..3 {
                m[r * 3 + c] = (0..3).map(|k| a[r * 3 + k] * b[k * 3 + c]).sum();
            }
        }
        Homography { m }
    }
}

/// Gaussian elimination with partial pivoting on an 8 × 9 augmented matrix.
fn solve8(mut a: [[f64; 9]; 8]) -> Option<[f64; 8]> {
    for col in 0..8 {
        let pivot = (col..8).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        for row in 0..8 {
            if row != col {
                let f = a[row][col] / a[col][col];
                if f != 0.0 {
                    let pivot_row = a[col];
                    for (v, p) in a[row].iter_mut().zip(pivot_row).skip(col) {
                        *v -= f * p;
                    }
                }
            }
        }
    }
    let mut x = [0.0; 8];
    for i in 0..8 {
        x[i] = a[i][8] / a[i][i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_points_map_exactly_and_the_inverse_undoes_the_map() {
        let from = [(0.0, 0.0), (700.0, 0.0), (700.0, 400.0), (0.0, 400.0)];
        let to = [
            (100.0, 80.0),
            (1800.0, 60.0),
            (1850.0, 1020.0),
            (60.0, 1000.0),
        ];
        let h = Homography::from_points(from, to).unwrap_or(Homography::IDENTITY);
        for (f, t) in from.iter().zip(to) {
            let p = h.map(*f).unwrap_or((0.0, 0.0));
            assert!((p.0 - t.0).abs() < 1e-6 && (p.1 - t.1).abs() < 1e-6);
        }
        let inv = h.inverse().unwrap_or(Homography::IDENTITY);
        let back = inv.map(h.map((350.0, 123.0)).unwrap_or((0.0, 0.0)));
        let back = back.unwrap_or((0.0, 0.0));
        assert!((back.0 - 350.0).abs() < 1e-6 && (back.1 - 123.0).abs() < 1e-6);
        let collinear = [(0.0, 0.0), (1.0, 1.0), (2.0, 2.0), (3.0, 3.0)];
        assert!(Homography::from_points(collinear, to).is_none());
    }
}
