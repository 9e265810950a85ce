//! Lookup tables of a block in backend-independent form: the output of one or several
//! functions for every block value. A backend turns a [`Table`] into whatever its
//! bootstrap needs (an accumulator polynomial on the CPU, a table the GPU kernel
//! expands).

use super::ShortintParameters;
use crate::error::{Error, Result};

/// The outputs of `k` functions of a block (`k` a power of two), evaluated by one
/// bootstrap.
///
/// With `k` functions, inputs must be below `input_bound = message_modulus *
/// carry_modulus / k`; entry `x + j * input_bound` holds `f_j(x)`, reduced modulo
/// `message_modulus * carry_modulus`. Entries for inputs the table was not built for
/// hold 0 (they are never read), so two tables of the same functions on the same
/// domain are equal and a step sends each distinct table once.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Table {
    values: Vec<u64>,
    degrees: Vec<u64>,
}

impl Table {
    /// The table of `f` on every block value.
    ///
    /// ```
    /// use gpufhe::backend::Table;
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// let t = Table::new(&DEFAULT_PARAMETERS, |x| x / 4).unwrap();
    /// assert_eq!(t.degrees(), &[3]);
    /// assert_eq!(t.input_bound(), 16);
    /// ```
    pub fn new(params: &ShortintParameters, f: impl Fn(u64) -> u64) -> Result<Self> {
        Self::on_domain(params, params.total_modulus() - 1, &[&f])
    }

    /// The table of `fs` (a power-of-two count) for inputs in `[0, max_input]`, which
    /// must be below `total_modulus / fs.len()`. Each output degree is the largest
    /// value its function takes on that domain.
    ///
    /// ```
    /// use gpufhe::backend::Table;
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// let t = Table::on_domain(&DEFAULT_PARAMETERS, 6, &[&|x| x % 4, &|x| x / 4]).unwrap();
    /// assert_eq!(t.degrees(), &[3, 1]);
    /// assert_eq!(t.input_bound(), 8);
    /// assert!(Table::on_domain(&DEFAULT_PARAMETERS, 8, &[&|x| x, &|x| x]).is_err());
    /// ```
    pub fn on_domain(
        params: &ShortintParameters,
        max_input: u64,
        fs: &[&dyn Fn(u64) -> u64],
    ) -> Result<Self> {
        let total = params.total_modulus();
        let k = fs.len() as u64;
        if k == 0 || !k.is_power_of_two() || k > total {
            return Err(Error::InvalidParameter(format!(
                "{k} functions in one bootstrap: the count must be a power of two in [1, {total}]"
            )));
        }
        let bound = total / k;
        if max_input >= bound {
            return Err(Error::CapacityExceeded(format!(
                "inputs up to {max_input} do not fit a table of {k} function(s), which needs \
                 values below {bound}"
            )));
        }
        let mut values = vec![0u64; total as usize];
        let mut degrees = Vec::with_capacity(fs.len());
        for (j, f) in fs.iter().enumerate() {
            let mut degree = 0;
            for x in 0..=max_input {
                let y = f(x) % total;
                values[j * bound as usize + x as usize] = y;
                degree = degree.max(y);
            }
            degrees.push(degree);
        }
        Ok(Self { values, degrees })
    }

    /// The entry for every block value (see the type's documentation for the layout).
    ///
    /// ```
    /// use gpufhe::backend::Table;
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// let t = Table::on_domain(&DEFAULT_PARAMETERS, 3, &[&|x| x + 1]).unwrap();
    /// // Entries past the domain are never read and hold 0.
    /// assert_eq!(&t.values()[..6], &[1, 2, 3, 4, 0, 0]);
    /// ```
    pub fn values(&self) -> &[u64] {
        &self.values
    }

    /// The number of functions (outputs per bootstrap).
    ///
    /// ```
    /// use gpufhe::backend::Table;
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// let t = Table::on_domain(&DEFAULT_PARAMETERS, 3, &[&|x| x, &|x| x, &|x| x, &|x| x]).unwrap();
    /// assert_eq!(t.function_count(), 4);
    /// ```
    pub fn function_count(&self) -> usize {
        self.degrees.len()
    }

    /// The largest output of each function.
    ///
    /// ```
    /// use gpufhe::backend::Table;
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// let t = Table::on_domain(&DEFAULT_PARAMETERS, 7, &[&|x| x * 2, &|x| x % 3]).unwrap();
    /// assert_eq!(t.degrees(), &[14, 2]);
    /// ```
    pub fn degrees(&self) -> &[u64] {
        &self.degrees
    }

    /// Inputs must be below this bound.
    ///
    /// ```
    /// use gpufhe::backend::Table;
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// let t = Table::on_domain(&DEFAULT_PARAMETERS, 1, &[&|x| x, &|x| x, &|x| x, &|x| x]).unwrap();
    /// assert_eq!(t.input_bound(), 16 / 4);
    /// ```
    pub fn input_bound(&self) -> u64 {
        self.values.len() as u64 / self.degrees.len() as u64
    }

    /// `Err` unless the table was built for parameters with this many block values.
    pub(crate) fn check_parameters(&self, params: &ShortintParameters) -> Result<()> {
        crate::error::check_eq(
            "number of entries of a lookup table (message * carry modulus)",
            params.total_modulus() as usize,
            self.values.len(),
        )
    }
}
