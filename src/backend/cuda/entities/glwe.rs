//! Lookup tables in the memory of one GPU ([`CudaLookupTableList`]): the
//! accumulators (trivial GLWE ciphertexts) the bootstraps rotate.

use crate::backend::cuda::driver::health::DeviceObject;
use crate::backend::cuda::driver::read_tracking::ReadTracked;
use crate::backend::cuda::CudaDevice;
use crate::backend::Table;
use crate::core_crypto::PolynomialSize;
use crate::error::{check_eq, Error, Result};
use crate::shortint::{LookupTable, ManyLookupTable, ShortintParameters};

/// Lookup tables in the memory of one GPU: one accumulator body polynomial per
/// table and the number of functions it evaluates (outputs per bootstrap).
#[derive(Debug)]
pub struct CudaLookupTableList {
    /// Read by the bootstraps of any stream: the drop waits for every reader.
    pub(crate) bodies: DeviceObject<ReadTracked<u64>>,
    pub(crate) function_counts: Vec<usize>,
    pub(crate) polynomial_size: PolynomialSize,
    pub(crate) device: CudaDevice,
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
        let bodies = lookup_table_bodies(parameters, tables)?;
        let function_counts = tables.iter().map(|t| t.function_count()).collect();
        Self::upload(device, bodies, function_counts, parameters.polynomial_size)
    }

    /// Uploads single-function lookup tables (trivial accumulators, as
    /// [`LookupTable::new`] makes them).
    pub fn from_lookup_tables(device: &CudaDevice, tables: &[&LookupTable]) -> Result<Self> {
        let Some(first) = tables.first() else {
            return Err(Error::InvalidParameter(
                "a lookup table list needs at least one table".into(),
            ));
        };
        let n = first.accumulator().polynomial_size();
        let mut bodies = Vec::with_capacity(tables.len() * n.0);
        for table in tables {
            let acc = table.accumulator();
            check_eq(
                "polynomial size of a lookup table",
                n.0,
                acc.polynomial_size().0,
            )?;
            let mask = &acc.as_slice()[..acc.as_slice().len() - n.0];
            if mask.iter().any(|&c| c != 0) {
                return Err(Error::InvalidParameter(
                    "GPU lookup tables must be trivial accumulators (zero mask)".into(),
                ));
            }
            bodies.extend_from_slice(acc.body());
        }
        Self::upload(device, bodies, vec![1; tables.len()], n)
    }

    fn upload(
        device: &CudaDevice,
        bodies: Vec<u64>,
        function_counts: Vec<usize>,
        polynomial_size: PolynomialSize,
    ) -> Result<Self> {
        if function_counts.is_empty() {
            return Err(Error::InvalidParameter(
                "a lookup table list needs at least one table".into(),
            ));
        }
        for &f in &function_counts {
            if !f.is_power_of_two() || f > polynomial_size.0 {
                return Err(Error::InvalidParameter(format!(
                    "{f} functions in one bootstrap: the count must be a power of two up to N"
                )));
            }
        }
        device.check_free_memory(std::mem::size_of_val(bodies.as_slice()))?;
        let bodies = device
            .stream()?
            .clone_htod(&bodies)
            .map_err(device.driver_err("copying lookup tables to the GPU"))?;
        Ok(Self {
            bodies: device.object(ReadTracked::new(bodies)),
            function_counts,
            polynomial_size,
            device: device.clone(),
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

    /// The device the tables live on.
    pub fn device(&self) -> &CudaDevice {
        &self.device
    }

    pub(crate) fn bodies(&self) -> &ReadTracked<u64> {
        &self.bodies
    }
}

/// The accumulator body polynomials of `tables` for `parameters`, one after the
/// other: what [`CudaLookupTableList::from_tables`] uploads (the CPU backend's
/// encoding). Public for the kernel emulation tests.
#[doc(hidden)]
pub fn lookup_table_bodies(parameters: &ShortintParameters, tables: &[&Table]) -> Result<Vec<u64>> {
    let mut bodies = Vec::with_capacity(tables.len() * parameters.polynomial_size.0);
    for table in tables {
        let many = ManyLookupTable::from_table(parameters, table)?;
        bodies.extend_from_slice(many.table.accumulator.body());
    }
    Ok(bodies)
}
