//! The harness's one random generator: every map, round order, bootstrap and synthetic
//! workload is drawn from a seed, and so reproducible.

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): 64 bits of state, each output one add and two xor-shift-multiplies. It
/// passes BigCrush; plenty for maps, round orders, bootstraps, synthetic workloads and
/// fuzzing: the harness's one generator. Seeded with its state.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// A generator seeded from a name (FNV-1a of its bytes), so that what it draws for a
    /// workload or a pair of queues is reproducible from their names.
    pub fn from_name(bytes: impl IntoIterator<Item = u8>) -> SplitMix64 {
        SplitMix64(bytes.into_iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        }))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`) by Lemire's multiply-shift; the bias, below n / 2⁶⁴, is
    /// far below anything a map could show.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// True with probability `percent / 100`.
    pub fn percent(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    /// Uniform in `[0, 1)`, with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
