//! Lookup tables for the GPU bootstraps ([`CudaLookupTableList`]): the backend's and
//! shortint's tables encoded as accumulators (a [`CudaGlweCiphertextList`], the
//! entity below) with the number of functions each packs.

use crate::backend::cuda::{CudaDevice, CudaGlweCiphertextList};
use crate::backend::Table;
use crate::core_crypto::{GlweCiphertextOwned, GlweSize, PolynomialSize};
use crate::error::{Error, Result};
use crate::shortint::{LookupTable, ManyLookupTable, ShortintParameters};

/// Lookup tables in the memory of one GPU: one accumulator per table, a trivial GLWE
/// ciphertext (zero mask: the bootstraps read its body), and the number of
/// functions it evaluates (outputs per bootstrap, function `i` read at coefficient
/// `i N / f`).
#[derive(Debug)]
pub struct CudaLookupTableList {
    accumulators: CudaGlweCiphertextList,
    function_counts: Vec<usize>,
}

impl CudaLookupTableList {
    /// Expands backend tables into accumulators for `parameters` (on the CPU, with
    /// the same encoding as the CPU backend) and uploads them.
    ///
    /// ```no_run
    /// use gpufhe::backend::{cuda::*, Table};
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// let gpu = CudaDevice::new(0).unwrap();
    /// let square = Table::new(&DEFAULT_PARAMETERS, |x| x * x).unwrap();
    /// let split = Table::on_domain(&DEFAULT_PARAMETERS, 7, &[&|x| x % 4, &|x| x / 4]).unwrap();
    /// let luts = CudaLookupTableList::from_tables(&gpu, &DEFAULT_PARAMETERS, &[&square, &split]).unwrap();
    /// assert_eq!(luts.function_counts(), &[1, 2]);
    /// ```
    pub fn from_tables(
        device: &CudaDevice,
        parameters: &ShortintParameters,
        tables: &[&Table],
    ) -> Result<Self> {
        let accumulators = lookup_table_accumulators(parameters, tables)?;
        let function_counts = tables.iter().map(|t| t.function_count()).collect();
        Self::upload(device, &accumulators, function_counts)
    }

    /// Uploads single-function lookup tables (their accumulators, as
    /// [`LookupTable::new`] makes them; `Err` for one that is not trivial).
    pub fn from_lookup_tables(device: &CudaDevice, tables: &[&LookupTable]) -> Result<Self> {
        let accumulators: Vec<&GlweCiphertextOwned> =
            tables.iter().map(|t| t.accumulator()).collect();
        Self::upload(device, &accumulators, vec![1; tables.len()])
    }

    /// Uploads `accumulators` (trivial ones), `function_counts[i]` functions in
    /// accumulator `i` (each a power of two up to `N`).
    fn upload<A: std::borrow::Borrow<GlweCiphertextOwned>>(
        device: &CudaDevice,
        accumulators: &[A],
        function_counts: Vec<usize>,
    ) -> Result<Self> {
        if function_counts.len() != accumulators.len() || function_counts.is_empty() {
            return Err(Error::InvalidParameter(format!(
                "{} function counts for {} accumulators (at least one)",
                function_counts.len(),
                accumulators.len()
            )));
        }
        for (acc, &f) in accumulators.iter().zip(&function_counts) {
            let acc = acc.borrow();
            let body = acc.body().len();
            if acc.as_slice()[..acc.as_slice().len() - body]
                .iter()
                .any(|&c| c != 0)
            {
                return Err(Error::InvalidParameter(
                    "GPU lookup tables must be trivial accumulators (zero mask)".into(),
                ));
            }
            if !f.is_power_of_two() || f > acc.polynomial_size().0 {
                return Err(Error::InvalidParameter(format!(
                    "{f} functions in one bootstrap: the count must be a power of two up to N"
                )));
            }
        }
        let accumulators =
            CudaGlweCiphertextList::from_cpu(device, accumulators.iter().map(|a| a.borrow()))?;
        Ok(Self {
            accumulators,
            function_counts,
        })
    }

    /// The number of tables.
    pub fn count(&self) -> usize {
        self.function_counts.len()
    }

    /// The number of functions (outputs per bootstrap) of each table.
    pub fn function_counts(&self) -> &[usize] {
        &self.function_counts
    }

    /// The accumulators.
    pub fn accumulators(&self) -> &CudaGlweCiphertextList {
        &self.accumulators
    }

    /// The device the tables live on.
    pub fn device(&self) -> &CudaDevice {
        self.accumulators.device()
    }

    /// `N`.
    pub(crate) fn polynomial_size(&self) -> PolynomialSize {
        self.accumulators.polynomial_size()
    }

    /// `k + 1`.
    pub(crate) fn glwe_size(&self) -> GlweSize {
        self.accumulators.glwe_size()
    }
}

/// The accumulators of `tables` for `parameters` (trivial GLWE ciphertexts of the
/// CPU backend's encoding): what [`CudaLookupTableList::from_tables`] uploads.
/// Public for the kernel emulation tests.
#[doc(hidden)]
pub fn lookup_table_accumulators(
    parameters: &ShortintParameters,
    tables: &[&Table],
) -> Result<Vec<GlweCiphertextOwned>> {
    tables
        .iter()
        .map(|table| {
            Ok(ManyLookupTable::from_table(parameters, table)?
                .table
                .accumulator)
        })
        .collect()
}

/// The accumulator body polynomials of `tables` for `parameters`, one after the
/// other (the last polynomial of each of [`lookup_table_accumulators`]). Public for
/// the kernel emulation tests.
#[doc(hidden)]
pub fn lookup_table_bodies(parameters: &ShortintParameters, tables: &[&Table]) -> Result<Vec<u64>> {
    let mut bodies = Vec::with_capacity(tables.len() * parameters.polynomial_size.0);
    for accumulator in lookup_table_accumulators(parameters, tables)? {
        bodies.extend_from_slice(accumulator.body());
    }
    Ok(bodies)
}
