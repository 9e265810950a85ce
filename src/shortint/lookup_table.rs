//! Lookup tables: the accumulator polynomials that make a bootstrap evaluate a function.

use super::ShortintParameters;
use super::Table;
use crate::core_crypto::{GlweCiphertextOwned, GlweSize};
use crate::error::{Error, Result};

/// A univariate lookup table: a trivial GLWE encryption of the table polynomial and
/// the degree of its outputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LookupTable {
    pub(crate) accumulator: GlweCiphertextOwned,
    pub(crate) degree: u64,
}

/// A lookup table of a function of two blocks, evaluated on `lhs * factor + rhs`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BivariateLookupTable {
    pub(crate) table: LookupTable,
    pub(crate) factor: u64,
}

impl LookupTable {
    /// The table of `f` over every value `x` in `[0, message_modulus * carry_modulus)`;
    /// outputs are reduced modulo `message_modulus * carry_modulus`.
    ///
    /// Coefficient `j` of the table polynomial holds `f(j / box)` (`box = N / (message
    /// modulus * carry modulus)`), and the table is rotated by half a box so that noise
    /// on either side of `x` still lands in the box of `x`. Past the end, the table
    /// wraps negacyclically to `-f(0)`, which a slightly negative input reads as `f(0)`.
    ///
    /// ```
    /// use gpufhe::shortint::{LookupTable, DEFAULT_PARAMETERS};
    /// let square = LookupTable::new(&DEFAULT_PARAMETERS, |x| x * x).unwrap();
    /// // Outputs are reduced modulo 16: the largest of x * x mod 16 is 9.
    /// assert_eq!(square.degree(), 9);
    /// ```
    pub fn new(parameters: &ShortintParameters, f: impl Fn(u64) -> u64) -> Result<Self> {
        parameters.validate()?;
        let total = parameters.total_modulus();
        let values: Vec<u64> = (0..total).map(|x| f(x) % total).collect();
        let degree = values.iter().copied().max().unwrap_or(0);
        Self::from_values(parameters, &values, degree)
    }

    /// The table whose entry for input `x` is `values[x]` (already reduced).
    pub(crate) fn from_values(
        parameters: &ShortintParameters,
        values: &[u64],
        degree: u64,
    ) -> Result<Self> {
        let n = parameters.polynomial_size.0;
        let delta = parameters.delta();
        let box_size = n / values.len();
        let mut body = vec![0u64; n];
        let half_box = box_size / 2;
        for (j, coef) in body.iter_mut().enumerate() {
            // Table entry j + half_box, negated past the end.
            let shifted = j + half_box;
            *coef = if shifted < n {
                values[shifted / box_size] * delta
            } else {
                (values[(shifted - n) / box_size] * delta).wrapping_neg()
            };
        }
        Self::from_body_polynomial(parameters, body, degree)
    }

    /// A table from an explicit body polynomial (already encoded and rotated) and the
    /// degree of its outputs. `Err` if the polynomial's size is not `N`.
    ///
    /// ```
    /// use gpufhe::shortint::{LookupTable, DEFAULT_PARAMETERS as p};
    /// let reference = LookupTable::new(&p, |x| x % 3).unwrap();
    /// let body = reference.accumulator().body().to_vec();
    /// let same = LookupTable::from_body_polynomial(&p, body, reference.degree()).unwrap();
    /// assert_eq!(same, reference);
    /// assert!(LookupTable::from_body_polynomial(&p, vec![0; 7], 0).is_err());
    /// ```
    pub fn from_body_polynomial(
        parameters: &ShortintParameters,
        body: Vec<u64>,
        degree: u64,
    ) -> Result<Self> {
        let n = parameters.polynomial_size.0;
        if body.len() != n {
            return Err(Error::DimensionMismatch {
                what: "size of the lookup-table polynomial (must be N)",
                expected: n,
                got: body.len(),
            });
        }
        let glwe_size: GlweSize = parameters.glwe_dimension.to_glwe_size();
        let mut data = vec![0u64; (glwe_size.0 - 1) * n];
        data.extend_from_slice(&body);
        Ok(Self {
            accumulator: GlweCiphertextOwned::from_container(data, parameters.polynomial_size)?,
            degree,
        })
    }

    /// The upper bound of the values the table outputs.
    ///
    /// ```
    /// use gpufhe::shortint::{LookupTable, DEFAULT_PARAMETERS};
    /// let half = LookupTable::new(&DEFAULT_PARAMETERS, |x| x / 2).unwrap();
    /// assert_eq!(half.degree(), 7);
    /// ```
    pub fn degree(&self) -> u64 {
        self.degree
    }

    /// The accumulator (a trivial GLWE ciphertext).
    ///
    /// ```
    /// use gpufhe::shortint::{LookupTable, DEFAULT_PARAMETERS as p};
    /// let lut = LookupTable::new(&p, |x| x).unwrap();
    /// let acc = lut.accumulator();
    /// assert_eq!(acc.glwe_size(), p.glwe_dimension.to_glwe_size());
    /// // A trivial encryption: zero masks, the table in the body.
    /// assert!(acc.as_slice()[..p.polynomial_size.0].iter().all(|&a| a == 0));
    /// ```
    pub fn accumulator(&self) -> &GlweCiphertextOwned {
        &self.accumulator
    }
}

/// Several functions of one block evaluated by a single bootstrap.
///
/// With `k` functions, inputs must be below `M = message_modulus * carry_modulus / k`;
/// the table holds `f_j(x)` at entry `x + j M`, and after the blind rotation the
/// result of `f_j` is the coefficient `j M box` of the accumulator, extracted as its
/// own ciphertext. One bootstrap, `k` outputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManyLookupTable {
    pub(crate) table: LookupTable,
    pub(crate) input_bound: u64,
    pub(crate) degrees: Vec<u64>,
}

impl ManyLookupTable {
    /// The table of `fs` (a power-of-two count, at most the number of block values).
    ///
    /// ```
    /// use gpufhe::shortint::{ManyLookupTable, DEFAULT_PARAMETERS};
    /// let lut = ManyLookupTable::new(&DEFAULT_PARAMETERS, &[&|x| x + 1, &|x| 2 * x]).unwrap();
    /// assert_eq!(lut.function_count(), 2);
    /// // Three functions: not a power of two.
    /// assert!(ManyLookupTable::new(&DEFAULT_PARAMETERS, &[&|x| x, &|x| x, &|x| x]).is_err());
    /// ```
    pub fn new(parameters: &ShortintParameters, fs: &[&dyn Fn(u64) -> u64]) -> Result<Self> {
        parameters.validate()?;
        let k = fs.len().max(1) as u64;
        let bound = parameters.total_modulus() / k;
        Self::from_table(
            parameters,
            &Table::on_domain(parameters, bound.saturating_sub(1), fs)?,
        )
    }

    /// The accumulator of a backend-independent table.
    pub(crate) fn from_table(parameters: &ShortintParameters, table: &Table) -> Result<Self> {
        table.check_parameters(parameters)?;
        let degree = table.degrees().iter().copied().max().unwrap_or(0);
        Ok(Self {
            table: LookupTable::from_values(parameters, table.values(), degree)?,
            input_bound: table.input_bound(),
            degrees: table.degrees().to_vec(),
        })
    }

    /// Inputs must be below this bound.
    ///
    /// ```
    /// use gpufhe::shortint::{ManyLookupTable, DEFAULT_PARAMETERS};
    /// // 16 block values shared by 4 functions: inputs below 4.
    /// let lut = ManyLookupTable::new(&DEFAULT_PARAMETERS, &[&|x| x, &|x| x, &|x| x, &|x| x]).unwrap();
    /// assert_eq!(lut.input_bound(), 4);
    /// ```
    pub fn input_bound(&self) -> u64 {
        self.input_bound
    }

    /// The number of functions.
    ///
    /// ```
    /// use gpufhe::shortint::{ManyLookupTable, DEFAULT_PARAMETERS};
    /// let lut = ManyLookupTable::new(&DEFAULT_PARAMETERS, &[&|x| x % 2, &|x| x / 2]).unwrap();
    /// assert_eq!(lut.function_count(), 2);
    /// ```
    pub fn function_count(&self) -> usize {
        self.degrees.len()
    }
}

impl BivariateLookupTable {
    /// The table of `f(lhs, rhs)` for `lhs, rhs` in `[0, message_modulus)`, evaluated
    /// on `lhs * message_modulus + rhs` (which needs `carry_modulus >= message_modulus`).
    ///
    /// ```
    /// use gpufhe::shortint::{BivariateLookupTable, DEFAULT_PARAMETERS};
    /// let min = BivariateLookupTable::new(&DEFAULT_PARAMETERS, |a, b| a.min(b)).unwrap();
    /// assert_eq!(min.factor(), 4);
    /// // Packing a * 4 + b needs room for a in the carries.
    /// let mut no_carry = DEFAULT_PARAMETERS;
    /// no_carry.carry_modulus = 1;
    /// assert!(BivariateLookupTable::new(&no_carry, |a, b| a.min(b)).is_err());
    /// ```
    pub fn new(parameters: &ShortintParameters, f: impl Fn(u64, u64) -> u64) -> Result<Self> {
        let factor = parameters.message_modulus;
        if parameters.carry_modulus < factor {
            return Err(Error::InvalidParameter(format!(
                "a bivariate table needs carry modulus {} >= message modulus {factor}",
                parameters.carry_modulus
            )));
        }
        let table = LookupTable::new(parameters, |x| f(x / factor, x % factor))?;
        Ok(Self { table, factor })
    }

    /// The factor the left operand is multiplied by.
    ///
    /// ```
    /// use gpufhe::shortint::{BivariateLookupTable, DEFAULT_PARAMETERS};
    /// let lut = BivariateLookupTable::new(&DEFAULT_PARAMETERS, |a, b| a ^ b).unwrap();
    /// assert_eq!(lut.factor(), DEFAULT_PARAMETERS.message_modulus);
    /// ```
    pub fn factor(&self) -> u64 {
        self.factor
    }

    /// The underlying univariate table.
    ///
    /// ```
    /// use gpufhe::shortint::{BivariateLookupTable, LookupTable, DEFAULT_PARAMETERS as p};
    /// let lut = BivariateLookupTable::new(&p, |a, b| a + b).unwrap();
    /// // The same table as the univariate one on x = a * 4 + b.
    /// assert_eq!(lut.as_univariate(), &LookupTable::new(&p, |x| x / 4 + x % 4).unwrap());
    /// ```
    pub fn as_univariate(&self) -> &LookupTable {
        &self.table
    }
}
