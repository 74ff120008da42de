//! What a run was measured on: the CPU's identity, its caches and the SIMD features that
//! change code paths, the cores, memory and kernel, and the features the binary was built
//! for. Typed once here, written in every row's machine columns, read back from them.
//!
//! On Linux it is read from `/proc/cpuinfo`, `/sys/devices/system/cpu/cpu0/cache`,
//! `/proc/meminfo` and `/proc/sys/kernel/osrelease`, with no process started; elsewhere a
//! fact that cannot be read is `None` (written empty, shown as "unknown").
//!
//! Two runs are on the same CPU kind ([`Platform::kind`]) when the vendor, family, model and
//! stepping agree, so two generations that share a model name read differently; a run
//! written before these columns existed has its model name alone.

use std::fmt;

use serde::Serialize;

/// The SIMD features that change which code the queues run (the SIMD quickheap's kernels,
/// the compiler's vectorised loops), in the order they are shown.
pub const SIMD: [&str; 5] = ["avx2", "bmi2", "avx512f", "avx512bw", "neon"];

/// A machine's identity as a run records it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Platform {
    /// The CPU's model name (`/proc/cpuinfo`'s `model name`), or the architecture.
    pub model_name: String,
    /// `AuthenticAMD`, `GenuineIntel`, ...
    pub vendor: Option<String>,
    /// The CPU family, model and stepping numbers.
    pub family: Option<u32>,
    /// The model number within the family.
    pub model: Option<u32>,
    /// The stepping.
    pub stepping: Option<u32>,
    /// Level 1 data, level 2 and level 3 cache sizes of one core, in KiB.
    pub caches: Caches,
    /// Which of [`SIMD`] the CPU has.
    pub simd: Vec<String>,
    /// Whether it runs under a hypervisor (the `hypervisor` CPU flag).
    pub vm: Option<bool>,
    /// Cores available to the run.
    pub cores: usize,
    /// Memory in GiB.
    pub memory_gib: Option<f64>,
    /// The kernel release.
    pub kernel: Option<String>,
    /// The target features the binary was compiled with (of [`SIMD`] and `sse4.2`).
    pub target_features: Vec<String>,
}

/// Cache sizes of one core, in KiB.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Caches {
    /// Level 1 data.
    pub l1d: Option<u32>,
    /// Level 2.
    pub l2: Option<u32>,
    /// Level 3 (shared).
    pub l3: Option<u32>,
}

impl Platform {
    /// This machine.
    pub fn detect() -> Platform {
        let read = |path: &str| std::fs::read_to_string(path).ok();
        let mut platform = read("/proc/cpuinfo")
            .map_or_else(Platform::default, |info| Platform::from_cpuinfo(&info));
        if platform.model_name.is_empty() {
            platform.model_name = std::env::consts::ARCH.to_owned();
        }
        let cache = |index: u32| {
            let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{index}");
            let (level, kind, size) = (
                read(&format!("{dir}/level"))?,
                read(&format!("{dir}/type"))?,
                read(&format!("{dir}/size"))?,
            );
            Some((level.trim().parse::<u32>().ok()?, kind.trim().to_owned(), parse_kib(&size)?))
        };
        for (level, kind, kib) in (0..8).filter_map(cache) {
            match (level, kind.as_str()) {
                (1, "Data") => platform.caches.l1d = Some(kib),
                (2, _) => platform.caches.l2 = Some(kib),
                (3, _) => platform.caches.l3 = Some(kib),
                _ => {}
            }
        }
        platform.cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        platform.memory_gib = read("/proc/meminfo").and_then(|info| {
            let kib: f64 = info.lines().next()?.split_whitespace().nth(1)?.parse().ok()?;
            Some((kib / 1024.0 / 1024.0).round())
        });
        platform.kernel = read("/proc/sys/kernel/osrelease").map(|k| k.trim().to_owned());
        platform.target_features = compiled_features();
        platform
    }

    /// The CPU's identity, SIMD features and hypervisor flag from `/proc/cpuinfo`'s text
    /// (its first processor's block).
    pub fn from_cpuinfo(info: &str) -> Platform {
        let field = |name: &str| {
            info.lines()
                .take_while(|line| !line.trim().is_empty())
                .find(|line| line.split(':').next().is_some_and(|key| key.trim() == name))
                .and_then(|line| line.split_once(':'))
                .map(|(_, value)| value.trim().to_owned())
        };
        let number = |name: &str| field(name).and_then(|v| v.parse::<u32>().ok());
        let flags: Vec<String> = field("flags")
            .or_else(|| field("Features"))
            .map(|f| f.split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default();
        Platform {
            model_name: field("model name").unwrap_or_default(),
            vendor: field("vendor_id"),
            family: number("cpu family"),
            model: number("model"),
            stepping: number("stepping"),
            simd: SIMD
                .iter()
                .filter(|f| flags.iter().any(|g| g == *f || (**f == "neon" && g == "asimd")))
                .map(|f| (*f).to_owned())
                .collect(),
            vm: (!flags.is_empty()).then(|| flags.iter().any(|f| f == "hypervisor")),
            ..Platform::default()
        }
    }

    /// The CPU kind runs are grouped by: the model name with vendor, family, model and
    /// stepping where recorded (`AMD EPYC (AuthenticAMD family 25 model 17 stepping 1)`),
    /// else the model name with "family not recorded".
    pub fn kind(&self) -> String {
        match (&self.vendor, self.family, self.model) {
            (Some(vendor), Some(family), Some(model)) => format!(
                "{} ({vendor} family {family} model {model}{})",
                self.model_name,
                self.stepping.map_or(String::new(), |s| format!(" stepping {s}"))
            ),
            _ => format!("{} (family not recorded)", self.model_name),
        }
    }

    /// Whether `other` is the same CPU kind: `None` when the model names agree but one of
    /// the two did not record the family, model and stepping that would tell.
    pub fn same_cpu(&self, other: &Platform) -> Option<bool> {
        if self.identified() && other.identified() {
            Some(self.kind() == other.kind())
        } else if self.model_name != other.model_name {
            Some(false)
        } else {
            None
        }
    }

    /// Whether the CPU's identity beyond its model name was recorded.
    pub fn identified(&self) -> bool {
        self.family.is_some()
    }
}

impl fmt::Display for Platform {
    /// `AMD EPYC (AuthenticAMD family 25 model 17 stepping 1; L1d 32 KiB, L2 1 MiB, L3 32
    /// MiB; avx2 bmi2 avx512f; VM), 2 cores, 24 GiB, Linux 6.18`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.identified() {
            write!(f, "{} (family, caches and features not recorded)", self.model_name)?;
        } else {
            let c = self.caches;
            let size = |kib: Option<u32>| match kib {
                Some(k) if k >= 1024 && k % 1024 == 0 => format!("{} MiB", k / 1024),
                Some(k) => format!("{k} KiB"),
                None => "unknown".to_owned(),
            };
            write!(
                f,
                "{}; L1d {}, L2 {}, L3 {}; {}{})",
                self.kind().trim_end_matches(')'),
                size(c.l1d),
                size(c.l2),
                size(c.l3),
                if self.simd.is_empty() { "no AVX2".to_owned() } else { self.simd.join(" ") },
                match self.vm {
                    Some(true) => "; VM",
                    Some(false) => "; bare metal",
                    None => "",
                }
            )?;
        }
        if self.cores > 0 {
            write!(f, ", {} cores", self.cores)?;
        }
        if let Some(gib) = self.memory_gib {
            write!(f, ", {gib:.0} GiB")?;
        }
        if let Some(kernel) = &self.kernel {
            write!(f, ", kernel {kernel}")?;
        }
        Ok(())
    }
}

/// A `/sys` cache size (`32K`, `1024K`, `32M`) in KiB.
fn parse_kib(text: &str) -> Option<u32> {
    let text = text.trim();
    let (digits, unit) =
        text.split_at(text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len()));
    let n: u32 = digits.parse().ok()?;
    match unit {
        "K" | "" => Some(n),
        "M" => n.checked_mul(1024),
        _ => None,
    }
}

/// The target features of [`SIMD`] (and `sse4.2`) this binary was compiled with.
fn compiled_features() -> Vec<String> {
    let on = [
        ("sse4.2", cfg!(target_feature = "sse4.2")),
        ("avx2", cfg!(target_feature = "avx2")),
        ("bmi2", cfg!(target_feature = "bmi2")),
        ("avx512f", cfg!(target_feature = "avx512f")),
        ("avx512bw", cfg!(target_feature = "avx512bw")),
        ("neon", cfg!(target_feature = "neon")),
    ];
    on.iter().filter(|(_, on)| *on).map(|(name, _)| (*name).to_owned()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAMILY_25: &str = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC\nstepping\t: 1\nflags\t\t: fpu sse4_2 avx2 bmi2 avx512f avx512bw hypervisor\n\nprocessor\t: 1\nvendor_id\t: GenuineIntel\n";

    #[test]
    fn two_generations_with_one_model_name_are_two_cpu_kinds() {
        let a = Platform::from_cpuinfo(FAMILY_25);
        let b = Platform::from_cpuinfo(&FAMILY_25.replace(": 25", ": 26").replace(": 17", ": 2"));
        assert_eq!(a.model_name, b.model_name);
        assert_eq!(a.kind(), "AMD EPYC (AuthenticAMD family 25 model 17 stepping 1)");
        assert_eq!(b.kind(), "AMD EPYC (AuthenticAMD family 26 model 2 stepping 1)");
        assert_eq!((a.same_cpu(&b), a.same_cpu(&a.clone())), (Some(false), Some(true)));
        assert_eq!(a.simd, ["avx2", "bmi2", "avx512f", "avx512bw"]);
        assert_eq!(a.vm, Some(true), "the first processor's block, not the second's");
    }

    #[test]
    fn a_run_without_the_identity_says_so_rather_than_guessing() {
        let old = Platform { model_name: "AMD EPYC".into(), ..Platform::default() };
        assert_eq!(old.kind(), "AMD EPYC (family not recorded)");
        assert_eq!(old.same_cpu(&Platform::from_cpuinfo(FAMILY_25)), None, "cannot tell");
        let intel = Platform { model_name: "Intel Xeon".into(), ..Platform::default() };
        assert_eq!(old.same_cpu(&intel), Some(false), "other model names differ");
        assert!(old.to_string().contains("not recorded"), "{old}");
        let none = Platform::from_cpuinfo("");
        assert_eq!((none.vm, none.family), (None, None), "unknown, not false");
    }

    #[test]
    fn the_display_names_caches_features_and_the_hypervisor() {
        let mut p = Platform::from_cpuinfo(FAMILY_25);
        p.caches = Caches { l1d: Some(32), l2: Some(1024), l3: Some(32768) };
        (p.cores, p.memory_gib, p.kernel) = (2, Some(24.0), Some("6.18".into()));
        assert_eq!(
            p.to_string(),
            "AMD EPYC (AuthenticAMD family 25 model 17 stepping 1; L1d 32 KiB, L2 1 MiB, L3 32 MiB; avx2 bmi2 avx512f avx512bw; VM), 2 cores, 24 GiB, kernel 6.18"
        );
        assert_eq!(
            (parse_kib("32K\n"), parse_kib("32M"), parse_kib("x")),
            (Some(32), Some(32768), None)
        );
    }
}
