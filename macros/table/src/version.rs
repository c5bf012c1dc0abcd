//! CUDA version numbers: the one rule of what a typedef version is, and the one way of writing
//! it as `CUDA x.y`. The macro, the runtime and the command all use these.

use std::fmt;

/// A CUDA version as the driver API counts it: `1000 * major + 10 * minor` (`3020` is CUDA 3.2,
/// `12050` is CUDA 12.5), between [`Version::MIN`] and [`Version::MAX`].
///
/// A typedef version (the `N` of `PFN_<symbol>_v<N>`) and a driver version
/// (`cuDriverGetVersion`) are both of this form. A value that is not can never be asked for: the
/// real driver answers success for some such values (version -1, measured) and returns an
/// unspecified variant.
///
/// ```
/// use cuda_entry_table::Version;
/// assert_eq!(Version::new(12050).unwrap().to_string(), "CUDA 12.5");
/// assert!(Version::new(12345).is_err());
/// assert_eq!("12.4".parse::<Version>().unwrap().get(), 12040);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version(u32);

/// Why a number or text is not a [`Version`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VersionError {
    /// Not a multiple of 10, or outside `MIN..=MAX`.
    NotAVersion(u64),
    /// Text that is neither digits (`12050`) nor `major.minor` (`12.5`).
    Unparsable(String),
}

impl fmt::Display for VersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VersionError::NotAVersion(n) => write!(
                f,
                "`{n}` is not a CUDA version: a version is 1000 * major + 10 * minor (3020 for \
                 CUDA 3.2, 12050 for CUDA 12.5), between {} and {}",
                Version::MIN.0,
                Version::MAX.0
            ),
            VersionError::Unparsable(text) => write!(
                f,
                "`{text}` is not a CUDA version: write 1000 * major + 10 * minor (12040) or \
                 major.minor (12.4)"
            ),
        }
    }
}

impl std::error::Error for VersionError {}

impl Version {
    /// CUDA 1.0.
    pub const MIN: Version = Version(1000);
    /// CUDA 99.99, the largest version of the form (and far below the driver's `int` limit).
    pub const MAX: Version = Version(99_990);

    /// Whether `n` has the form `1000 * major + 10 * minor` and lies in `MIN..=MAX`.
    pub const fn is_valid(n: u32) -> bool {
        n >= Version::MIN.0 && n <= Version::MAX.0 && n.is_multiple_of(10)
    }

    /// `n` as a version, or why it is not one.
    ///
    /// # Errors
    /// [`VersionError::NotAVersion`] when `n` is not of the form or out of range.
    pub const fn new(n: u32) -> Result<Version, VersionError> {
        if Version::is_valid(n) {
            Ok(Version(n))
        } else {
            Err(VersionError::NotAVersion(n as u64))
        }
    }

    /// `n` as a version, from any integer width (for literals and command-line numbers that may
    /// not fit a `u32`).
    ///
    /// # Errors
    /// As [`Version::new`].
    pub fn from_u64(n: u64) -> Result<Version, VersionError> {
        u32::try_from(n)
            .ok()
            .and_then(|n| Version::new(n).ok())
            .ok_or(VersionError::NotAVersion(n))
    }

    /// The number: `12050`.
    pub const fn get(self) -> u32 {
        self.0
    }

    /// The major release: `12` for `12050`.
    pub const fn major(self) -> u32 {
        self.0 / 1000
    }

    /// The minor release: `5` for `12050`.
    pub const fn minor(self) -> u32 {
        self.0 % 1000 / 10
    }

    /// `12.5`, without the `CUDA ` of `Display`.
    pub fn dotted(self) -> String {
        dotted(self.0)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&Cuda(self.0), f)
    }
}

impl std::str::FromStr for Version {
    type Err = VersionError;

    /// `12050` or `12.5` (`12.10` is not a CUDA release: the minor is one digit).
    fn from_str(text: &str) -> Result<Version, VersionError> {
        let unparsable = || VersionError::Unparsable(text.to_owned());
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        match text.split_once('.') {
            None if digits(text) => Version::from_u64(text.parse().map_err(|_| unparsable())?),
            Some((major, minor)) if digits(major) && digits(minor) && minor.len() == 1 => {
                let major: u64 = major.parse().map_err(|_| unparsable())?;
                let minor: u64 = minor.parse().map_err(|_| unparsable())?;
                Version::from_u64(major.saturating_mul(1000).saturating_add(minor * 10))
            }
            _ => Err(unparsable()),
        }
    }
}

impl From<Version> for u32 {
    fn from(v: Version) -> u32 {
        v.0
    }
}

/// Any version number written as `CUDA major.minor`, whether or not it is a valid [`Version`]
/// (a driver reports what it reports): `Cuda(13000)` displays `CUDA 13.0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cuda(pub u32);

impl fmt::Display for Cuda {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CUDA {}", dotted(self.0))
    }
}

/// `13000` -> `13.0`.
fn dotted(n: u32) -> String {
    format!("{}.{}", n / 1000, n % 1000 / 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_is_checked_at_both_ends() {
        assert!(Version::is_valid(1000));
        assert!(Version::is_valid(99_990));
        assert!(!Version::is_valid(990));
        assert!(!Version::is_valid(100_000));
        assert!(!Version::is_valid(3025));
        assert!(!Version::is_valid(0));
        assert_eq!(
            Version::from_u64(u64::from(u32::MAX) + 10),
            Err(VersionError::NotAVersion(u64::from(u32::MAX) + 10))
        );
    }

    #[test]
    fn displayed_and_parsed_both_ways() {
        let v = Version::new(12050).unwrap();
        assert_eq!((v.major(), v.minor()), (12, 5));
        assert_eq!(v.to_string(), "CUDA 12.5");
        assert_eq!(v.dotted(), "12.5");
        assert_eq!("12050".parse::<Version>(), Ok(v));
        assert_eq!("12.5".parse::<Version>(), Ok(v));
        assert!("12.50".parse::<Version>().is_err());
        assert!("12.".parse::<Version>().is_err());
        assert!("-1".parse::<Version>().is_err());
        assert!("4294967290".parse::<Version>().is_err());
        assert_eq!(Cuda(13000).to_string(), "CUDA 13.0");
    }
}
