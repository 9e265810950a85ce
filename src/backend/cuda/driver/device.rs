//! Opening a CUDA device: driver presence, context, stream and the loaded kernel
//! modules.

use crate::backend::cuda::driver::health::cuda_err;
use crate::backend::cuda::driver::health::{DeviceObject, Opening};
use crate::backend::cuda::driver::kernel::{Kernel, KernelDevice};
use crate::backend::cuda::driver::kernel_image::{
    describe_images, driver_requirement, kernels_cuda_version, select_image, ImagePreference,
    KernelImage, KernelModule,
};
use crate::backend::cuda::driver::memory_pool::MemoryPool;
use crate::error::{check_eq, Error, Result};
use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaStream, DriverError};
use cudarc::nvrtc::Ptx;
use std::any::Any;
use std::sync::{Arc, Mutex, OnceLock};

fn load_module(
    opening: &Opening,
    context: &Arc<CudaContext>,
    images: &[KernelImage],
    (major, minor): (u32, u32),
) -> Result<Arc<CudaModule>> {
    use cudarc::driver::sys::CUresult;
    let preference = ImagePreference::from_env()?;
    let Some(image) = select_image(images, 10 * major + minor, preference) else {
        return Err(Error::Cuda {
            context: "loading a kernel module",
            message: format!(
                "the kernels hold {}, none of which runs on compute capability {major}.{minor}",
                describe_images(images)
            ),
        });
    };
    context
        .load_module(Ptx::from_binary(image.bytes.to_vec()))
        .map_err(|e| match e.0 {
            // No machine code for this GPU that the driver accepts, and PTX it cannot
            // compile: say which driver the kernels need.
            CUresult::CUDA_ERROR_NO_BINARY_FOR_GPU
            | CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION
            | CUresult::CUDA_ERROR_INVALID_PTX
            | CUresult::CUDA_ERROR_INVALID_IMAGE => Error::Cuda {
                context: "loading a kernel module",
                message: format!(
                    "{e}; {}",
                    driver_requirement(kernels_cuda_version(), driver_version())
                ),
            },
            _ => opening.driver_error("loading a kernel module", e),
        })
}

/// `cuDriverGetVersion`, `None` if it fails.
fn driver_version() -> Option<i32> {
    let mut version = 0;
    // SAFETY: the driver library is loaded (a context exists when modules load);
    // the call writes one int through a valid pointer.
    let status = unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) };
    (status == cudarc::driver::sys::CUresult::CUDA_SUCCESS).then_some(version)
}

/// Every driver function the crate calls (through cudarc), which loads each on
/// first use and panics if the library lacks it. The fake driver
/// (`testing/cuda-emu/fake_driver.cpp`) exports exactly these, so CI fails if a call
/// outside the list is added.
#[doc(hidden)]
pub const DRIVER_SYMBOLS: [&str; 55] = [
    "cuCtxGetCurrent",
    "cuCtxGetDevice",
    "cuCtxPopCurrent_v2",
    "cuCtxPushCurrent_v2",
    "cuCtxSetCurrent",
    "cuCtxSynchronize",
    "cuDeviceGet",
    "cuDeviceGetAttribute",
    "cuDeviceGetCount",
    "cuDeviceGetDefaultMemPool",
    "cuDeviceGetName",
    "cuDeviceGetUuid",
    "cuDevicePrimaryCtxRelease_v2",
    "cuDevicePrimaryCtxReset_v2",
    "cuDevicePrimaryCtxRetain",
    "cuDeviceTotalMem_v2",
    "cuDriverGetVersion",
    "cuEventCreate",
    "cuEventDestroy_v2",
    "cuEventElapsedTime",
    "cuEventQuery",
    "cuEventRecord",
    "cuEventSynchronize",
    "cuFuncGetAttribute",
    "cuFuncSetAttribute",
    "cuGetErrorName",
    "cuGetErrorString",
    "cuInit",
    "cuLaunchKernel",
    "cuLaunchKernelEx",
    "cuMemAllocAsync",
    "cuMemAlloc_v2",
    "cuMemFreeAsync",
    "cuMemFree_v2",
    "cuMemGetInfo_v2",
    "cuMemPoolGetAttribute",
    "cuMemPoolSetAttribute",
    "cuMemPoolTrimTo",
    "cuMemcpyDtoDAsync_v2",
    "cuMemcpyDtoD_v2",
    "cuMemcpyDtoHAsync_v2",
    "cuMemcpyDtoH_v2",
    "cuMemcpyHtoDAsync_v2",
    "cuMemcpyHtoD_v2",
    "cuMemsetD8Async",
    "cuMemsetD8_v2",
    "cuModuleGetFunction",
    "cuModuleLoadData",
    "cuModuleUnload",
    "cuOccupancyMaxActiveClusters",
    "cuStreamCreate",
    "cuStreamDestroy_v2",
    "cuStreamQuery",
    "cuStreamSynchronize",
    "cuStreamWaitEvent",
];

/// `Err(NoCudaDevice)` unless the CUDA driver library can be loaded and has every
/// function of [`DRIVER_SYMBOLS`]. cudarc panics on its first call without a driver,
/// and on the first call of a function the driver lacks (a stub or an old or foreign
/// `libcuda`), so this runs before any of them; the answer is kept for the process.
fn check_driver() -> Result<()> {
    static CHECKED: std::sync::OnceLock<Result<()>> = std::sync::OnceLock::new();
    CHECKED.get_or_init(check_driver_library).clone()
}

/// [`check_driver`], uncached: opens the library cudarc will open (the first of its
/// candidate names that loads) and looks up every symbol.
fn check_driver_library() -> Result<()> {
    let candidates = ["cuda", "nvcuda"]
        .iter()
        .flat_map(|name| cudarc::get_lib_name_candidates(name));
    for candidate in candidates {
        // SAFETY: opening the driver library runs its initialisers, as cudarc's own
        // loading of the same library does; nothing else is assumed of it.
        let Ok(library) = (unsafe { libloading::Library::new(&candidate) }) else {
            continue;
        };
        let missing: Vec<&str> = DRIVER_SYMBOLS
            .iter()
            .copied()
            // SAFETY: the symbol is only looked up, never called or dereferenced.
            .filter(|name| unsafe { library.get::<*const ()>(name.as_bytes()) }.is_err())
            .collect();
        return if missing.is_empty() {
            Ok(())
        } else {
            Err(Error::NoCudaDevice(format!(
                "the CUDA driver library {candidate} lacks {} of the functions gpufhe \
                 needs ({}): it is a stub or not an NVIDIA driver of release 525 or newer",
                missing.len(),
                missing.join(", ")
            )))
        };
    }
    Err(Error::NoCudaDevice(
        "the CUDA driver library (libcuda) cannot be loaded".into(),
    ))
}

/// The number of visible CUDA devices; `Err` when there is no driver.
///
/// ```no_run
/// let n = gpufhe::backend::cuda::cuda_device_count().unwrap_or(0);
/// println!("{n} GPU(s)");
/// ```
pub fn cuda_device_count() -> Result<usize> {
    check_driver()?;
    let n = CudaContext::device_count().map_err(cuda_err("counting devices"))?;
    checked_device_count(n)
}

/// The most devices a driver is believed: a count sizes per-GPU keys and probes, so
/// a broken or hostile driver's larger count is refused before it sizes anything.
pub(crate) const MAX_DEVICES: usize = 1024;

/// `reported` (from `cuDeviceGetCount`; negative counts as 0), or `Err` above
/// [`MAX_DEVICES`].
fn checked_device_count(reported: i32) -> Result<usize> {
    let n = usize::try_from(reported).unwrap_or(0);
    if n > MAX_DEVICES {
        return Err(Error::Cuda {
            context: "counting devices",
            message: format!(
                "the driver reports {n} devices, more than the {MAX_DEVICES} this crate \
                 accepts: a broken driver"
            ),
        });
    }
    Ok(n)
}

/// What launch geometry depends on, read once per device.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DeviceAttributes {
    /// Number of streaming multiprocessors.
    pub(crate) multiprocessors: u32,
    /// Compute capability (major, minor).
    pub(crate) compute_capability: (u32, u32),
    /// Dynamic shared memory a block may opt into, in bytes.
    pub(crate) max_shared_memory_per_block: u32,
}

impl DeviceAttributes {
    fn read(opening: &Opening, context: &CudaContext) -> Result<Self> {
        let get = |a: CUdevice_attribute| -> Result<u32> {
            let v = context
                .attribute(a)
                .map_err(|e| opening.driver_error("querying a device attribute", e))?;
            Ok(v.max(0) as u32)
        };
        Ok(Self {
            multiprocessors: get(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            compute_capability: (
                get(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
                get(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
            ),
            max_shared_memory_per_block: get(
                CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            )?,
        })
    }

    /// Thread block clusters and distributed shared memory (sm_90 and newer).
    pub(crate) fn has_clusters(&self) -> bool {
        self.compute_capability.0 >= 9
    }
}

#[derive(Debug)]
struct Inner {
    ordinal: usize,
    opening: Opening,
    attributes: DeviceAttributes,
    /// The default memory pool, set to keep what it maps (`None`: the device has no
    /// pools, and cudarc allocates without them).
    pool: Option<MemoryPool>,
    driver: DeviceObject<DriverObjects>,
    streams_created: std::sync::atomic::AtomicUsize,
}

/// The driver objects of an opened device (leaked if it is lost).
#[derive(Debug)]
struct DriverObjects {
    context: Arc<CudaContext>,
    /// One per [`KernelModule`], in the order of [`KernelModule::ALL`].
    modules: Vec<Arc<CudaModule>>,
    /// What the layer above looked up in the modules (see
    /// [`CudaDevice::once_per_opening`]), with the lock that makes it once.
    looked_up: OnceLock<Box<dyn Any + Send + Sync>>,
    looking_up: Mutex<()>,
}

/// One CUDA device with its context and loaded kernel modules, seen through one stream.
/// Cloning is cheap (shared) and keeps the stream; [`CudaDevice::with_new_stream`]
/// gives a handle on the same device with a stream of its own, so that work queued
/// by different threads runs concurrently. Device buffers remember the stream they
/// were allocated on; using them from another stream is ordered by cudarc's events.
///
/// After a sticky error on the GPU every handle of that opening of the device, and
/// everything made with one, fails with [`Error::DeviceLost`]; opening the device
/// again resets it (see [`CudaDevice::is_lost`]).
#[derive(Debug, Clone)]
pub struct CudaDevice {
    inner: Arc<Inner>,
    stream: DeviceObject<Arc<CudaStream>>,
}

impl CudaDevice {
    /// Opens device `ordinal` (after `CUDA_VISIBLE_DEVICES`) and loads the kernel
    /// modules.
    ///
    /// ```no_run
    /// let gpu = gpufhe::backend::cuda::CudaDevice::new(0).unwrap();
    /// assert_eq!(gpu.ordinal(), 0);
    /// ```
    pub fn new(ordinal: usize) -> Result<Self> {
        let count = cuda_device_count()?;
        if count == 0 {
            return Err(Error::NoCudaDevice(
                "the driver reports no CUDA device".into(),
            ));
        }
        if ordinal >= count {
            return Err(Error::NoCudaDevice(format!(
                "device {ordinal} requested, but only {count} device(s) are visible"
            )));
        }
        let images = KernelModule::ALL
            .map(KernelModule::images)
            .into_iter()
            .collect::<Option<Vec<_>>>()
            .ok_or(Error::KernelsNotBuilt)?;
        let opening = Opening::begin(ordinal)?;
        let o = &opening;
        let context =
            CudaContext::new(ordinal).map_err(|e| o.driver_error("creating a context", e))?;
        let stream = context
            .new_stream()
            .map_err(|e| o.driver_error("creating a stream", e))?;
        let stream = DeviceObject::new(stream, o);
        let attributes = DeviceAttributes::read(o, &context)?;
        let pool = if context.has_async_alloc() {
            let pool = MemoryPool::of(context.cu_device())
                .map_err(|e| o.driver_error("finding the device's memory pool", e))?;
            pool.keep_mapped()
                .map_err(|e| o.driver_error("setting the memory pool's release threshold", e))?;
            Some(pool)
        } else {
            None
        };
        let cc = attributes.compute_capability;
        let modules = images
            .into_iter()
            .map(|images| load_module(o, &context, images, cc))
            .collect::<Result<Vec<_>>>()?;
        let driver = DeviceObject::new(
            DriverObjects {
                context,
                modules,
                looked_up: OnceLock::new(),
                looking_up: Mutex::new(()),
            },
            o,
        );
        Ok(Self {
            inner: Arc::new(Inner {
                ordinal,
                attributes,
                pool,
                driver,
                streams_created: std::sync::atomic::AtomicUsize::new(1),
                opening,
            }),
            stream,
        })
    }

    /// Device `ordinal`, opened once per process and shared: every call with the same
    /// ordinal returns a handle on the same context and kernels (and stream), so keys
    /// and values of one GPU can meet in a kernel whoever opened it. Once that opening
    /// is lost (see [`CudaDevice::is_lost`]), the next call opens the device again.
    ///
    /// ```no_run
    /// use gpufhe::backend::cuda::CudaDevice;
    /// let a = CudaDevice::shared(0).unwrap();
    /// let b = CudaDevice::shared(0).unwrap();
    /// assert!(a.same_device(&b));
    /// ```
    pub fn shared(ordinal: usize) -> Result<Self> {
        static OPENED: Mutex<Vec<CudaDevice>> = Mutex::new(Vec::new());
        // A panic while the lock was held cannot leave the list inconsistent (it is
        // only pushed to, and a lost device removed), so a poisoned lock is usable.
        let mut opened = OPENED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = opened.iter().position(|d| d.ordinal() == ordinal) {
            if !opened[at].is_lost() {
                return Ok(opened[at].clone());
            }
            opened.swap_remove(at);
        }
        let device = Self::new(ordinal)?;
        opened.push(device.clone());
        Ok(device)
    }

    /// A handle on the same device (context and kernels) with a new stream of its
    /// own. The stream is destroyed when the last handle and the last buffer
    /// allocated through it are dropped.
    ///
    /// ```no_run
    /// use gpufhe::backend::cuda::CudaDevice;
    /// let gpu = CudaDevice::new(0).unwrap();
    /// let other = gpu.with_new_stream().unwrap();
    /// assert!(other.same_device(&gpu));
    /// ```
    pub fn with_new_stream(&self) -> Result<Self> {
        let stream = self
            .context()?
            .new_stream()
            .map_err(self.driver_err("creating a stream"))?;
        self.inner
            .streams_created
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(Self {
            inner: self.inner.clone(),
            stream: self.object(stream),
        })
    }

    /// How many streams were created on this opening of the device so far (for
    /// tests that check that streams stay bounded).
    #[doc(hidden)]
    pub fn streams_created(&self) -> usize {
        self.inner
            .streams_created
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Whether `other` is a handle on the same opened device (whatever its stream).
    pub fn same_device(&self, other: &CudaDevice) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// The device's ordinal.
    pub fn ordinal(&self) -> usize {
        self.inner.ordinal
    }

    /// The compute capability (major, minor), e.g. (9, 0) for an H100.
    pub fn compute_capability(&self) -> (u32, u32) {
        self.inner.attributes.compute_capability
    }

    /// The number of streaming multiprocessors.
    pub fn multiprocessor_count(&self) -> usize {
        self.inner.attributes.multiprocessors as usize
    }

    /// Free and total device memory, in bytes. Free memory is what this process can
    /// allocate: the driver's free memory and what its memory pool holds mapped but
    /// unused (buffers freed since, which it keeps for the next allocations; see
    /// `driver/memory_pool.rs`).
    ///
    /// ```no_run
    /// let gpu = gpufhe::backend::cuda::CudaDevice::new(0).unwrap();
    /// let (free, total) = gpu.memory_info().unwrap();
    /// assert!(free <= total);
    /// ```
    pub fn memory_info(&self) -> Result<(usize, usize)> {
        let (free, total) = self
            .context()?
            .mem_get_info()
            .map_err(self.driver_err("querying device memory"))?;
        let pooled = match self.inner.pool {
            Some(pool) => pool
                .unused_bytes()
                .map_err(self.driver_err("querying the memory pool"))?,
            None => 0,
        };
        let pooled = usize::try_from(pooled).unwrap_or(usize::MAX);
        Ok((free.saturating_add(pooled).min(total), total))
    }

    /// Waits for the work of every stream of this GPU, then gives the memory its
    /// pool holds unused back to the driver: for a step that ran out of memory
    /// although the pool's unused bytes counted as free (they may be fragments that
    /// no single allocation fits in).
    pub(crate) fn release_pooled_memory(&self) -> Result<()> {
        self.context()?
            .synchronize()
            .map_err(self.driver_err("synchronizing the device"))?;
        match self.inner.pool {
            Some(pool) => pool
                .trim()
                .map_err(self.driver_err("trimming the memory pool")),
            None => Ok(()),
        }
    }

    /// Waits for the work queued on every stream of this GPU, ignoring errors: for
    /// the destructors of data that streams other than the allocating one may read
    /// (a buffer only waits for the last stream that read it). A failure here (the
    /// driver shutting down, a lost device) leaves nothing to wait for.
    pub(crate) fn wait_for_every_stream(&self) {
        if let Ok(context) = self.context() {
            let _ = context.synchronize();
        }
    }

    /// Waits until every operation queued on this handle's stream has finished.
    pub fn synchronize(&self) -> Result<()> {
        self.stream()?
            .synchronize()
            .map_err(self.driver_err("synchronizing the stream"))
    }

    /// Whether this opening of the device was lost to a sticky error (an illegal
    /// address, a failed launch, ...): then everything made with it fails with
    /// [`Error::DeviceLost`] without calling the driver, and the next
    /// [`CudaDevice::new`] or [`CudaDevice::shared`] of the GPU resets it and opens it
    /// again.
    ///
    /// ```no_run
    /// use gpufhe::backend::cuda::CudaDevice;
    /// let gpu = CudaDevice::shared(0).unwrap();
    /// assert!(!gpu.is_lost());
    /// ```
    pub fn is_lost(&self) -> bool {
        self.inner.opening.is_lost()
    }

    /// `Err(DeviceLost)` once this opening of the device is lost.
    pub(crate) fn check(&self) -> Result<()> {
        self.inner.opening.check()
    }

    /// Maps a failed driver call of this device during `context` to an [`Error`]
    /// ([`Error::DeviceLost`] for a sticky error, which marks the device lost).
    pub(crate) fn driver_err(
        &self,
        context: &'static str,
    ) -> impl FnOnce(DriverError) -> Error + '_ {
        move |e| self.inner.opening.driver_error(context, e)
    }

    /// `value`, a driver object of this device, leaked instead of dropped if the
    /// device is lost (see [`DeviceObject`]).
    pub(crate) fn object<T>(&self, value: T) -> DeviceObject<T> {
        DeviceObject::new(value, &self.inner.opening)
    }

    /// The stream, or `Err(DeviceLost)`: every use of the driver through this handle
    /// goes through here or [`CudaDevice::context`], so nothing of a lost device
    /// reaches the driver.
    pub(crate) fn stream(&self) -> Result<&Arc<CudaStream>> {
        self.check()?;
        Ok(&self.stream)
    }

    /// The context, or `Err(DeviceLost)`.
    pub(crate) fn context(&self) -> Result<&Arc<CudaContext>> {
        self.check()?;
        Ok(&self.inner.driver.context)
    }

    /// Kernel `name` of `module`, looked up in this opening's copy of the module.
    pub(crate) fn kernel(&self, module: KernelModule, name: &str) -> Result<Kernel> {
        Ok(Kernel::new(self.function(module, name)?))
    }

    /// Function `name` of `module` (a kernel launched without a [`Kernel`]'s limits).
    pub(crate) fn function(&self, module: KernelModule, name: &str) -> Result<CudaFunction> {
        self.check()?;
        let index = KernelModule::ALL
            .iter()
            .position(|&m| m == module)
            .unwrap_or_default();
        self.inner.driver.modules[index]
            .load_function(name)
            .map_err(|e| self.inner.opening.driver_error("looking up a kernel", e))
    }

    /// What `look_up` makes of this opening's modules (the layer above's typed kernel
    /// handles), made once per opening of the device and kept as long as it: every
    /// handle on the device, whatever its stream, gets the same value. The driver
    /// names no kernel: which functions to look up, and their type `T`, are the
    /// caller's (one type per device; another is an internal error). `Err` if
    /// `look_up` fails (then a later call tries again) or the device is lost.
    pub(crate) fn once_per_opening<T: Any + Send + Sync>(
        &self,
        look_up: impl FnOnce(&CudaDevice) -> Result<T>,
    ) -> Result<&T> {
        self.check()?;
        fn downcast<T: Any>(value: &(dyn Any + Send + Sync)) -> Result<&T> {
            value.downcast_ref::<T>().ok_or_else(|| {
                Error::InvalidParameter("internal: two kinds of kernel tables on one device".into())
            })
        }
        let driver = &self.inner.driver;
        if let Some(value) = driver.looked_up.get() {
            return downcast(value.as_ref());
        }
        // A panic while the lock is held leaves nothing half made (the value is set
        // whole or not at all), so a poisoned lock is usable.
        let _once = driver
            .looking_up
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if driver.looked_up.get().is_none() {
            let value: Box<dyn Any + Send + Sync> = Box::new(look_up(self)?);
            let _ = driver.looked_up.set(value);
        }
        match driver.looked_up.get() {
            Some(value) => downcast(value.as_ref()),
            None => Err(Error::InvalidParameter(
                "internal: the kernel table was not kept".into(),
            )),
        }
    }

    pub(crate) fn attributes(&self) -> &DeviceAttributes {
        &self.inner.attributes
    }

    /// `Err` unless `other` is this GPU: data of two GPUs cannot meet in one kernel.
    pub(crate) fn check_same(&self, what: &'static str, other: &CudaDevice) -> Result<()> {
        check_eq(what, self.ordinal(), other.ordinal())
    }

    /// Fails with a clear error unless `bytes` fit in the device's free memory.
    ///
    /// Buffers dropped on a stream are freed in stream order: until the stream gets
    /// there, the pool counts them as used. So when `bytes` do not seem to fit, this
    /// handle's stream is synchronized and the free memory (the pool's unused bytes
    /// included, see [`CudaDevice::memory_info`]) measured again.
    pub(crate) fn check_free_memory(&self, bytes: usize) -> Result<()> {
        let (free, _) = self.memory_info()?;
        if bytes <= free {
            return Ok(());
        }
        self.synchronize()?;
        let (free, _) = self.memory_info()?;
        if bytes > free {
            return Err(Error::OutOfDeviceMemory(format!(
                "{bytes} bytes requested, {free} bytes free on GPU {}",
                self.ordinal()
            )));
        }
        Ok(())
    }
}

impl KernelDevice for CudaDevice {
    fn check(&self) -> Result<()> {
        CudaDevice::check(self)
    }

    fn driver_err(&self, context: &'static str) -> impl FnOnce(DriverError) -> Error + '_ {
        CudaDevice::driver_err(self, context)
    }

    fn max_shared_memory_per_block(&self) -> u32 {
        self.attributes().max_shared_memory_per_block
    }

    fn ordinal(&self) -> usize {
        CudaDevice::ordinal(self)
    }

    fn bind_context(&self) -> Result<()> {
        self.context()?
            .bind_to_thread()
            .map_err(CudaDevice::driver_err(self, "binding the CUDA context"))
    }

    fn cu_stream(&self) -> Result<cudarc::driver::sys::CUstream> {
        Ok(self.stream()?.cu_stream())
    }
}

/// What probing one device found: its ordinal, its memory, and its free memory or
/// why this process cannot use it. The driver layer's side of
/// [`GpuProbe`](crate::backend::gpu::GpuProbe).
#[derive(Debug)]
pub(crate) struct ProbedDevice {
    pub(crate) ordinal: u32,
    pub(crate) total_bytes: u64,
    pub(crate) free_bytes: std::result::Result<u64, String>,
}

/// Every visible device probed: its compute mode, and its free memory measured in
/// its primary context, which is retained, pushed on this thread, popped and
/// released again (the thread's current context is left as it was). A device that
/// cannot be used is listed with the reason; `Err` only when there is no driver or
/// it cannot count the devices.
pub(crate) fn probe_devices() -> Result<Vec<ProbedDevice>> {
    use cudarc::driver::result;
    check_driver()?;
    result::init()
        .map_err(|e| Error::NoCudaDevice(format!("the CUDA driver did not initialize: {e}")))?;
    let count = result::device::get_count().map_err(cuda_err("counting devices"))?;
    Ok((0..count.max(0)).map(probe_device).collect())
}

/// One device for [`probe_devices`]; a failure makes it unusable, with the reason.
fn probe_device(ordinal: std::ffi::c_int) -> ProbedDevice {
    use cudarc::driver::result;
    use cudarc::driver::sys::CUcomputemode;
    let unusable = |total_bytes, reason: String| ProbedDevice {
        ordinal: ordinal.max(0) as u32,
        total_bytes,
        free_bytes: Err(reason),
    };
    let device = match result::device::get(ordinal) {
        Ok(device) => device,
        Err(e) => return unusable(0, format!("no handle on it ({e})")),
    };
    // SAFETY: `device` was returned by cuDeviceGet; the query only reads it.
    let total = unsafe { result::device::total_mem(device) }.map_or(0, |b| b as u64);
    // SAFETY: as above.
    let mode = unsafe {
        result::device::get_attribute(device, CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_MODE)
    };
    let is = |m: CUcomputemode| matches!(mode, Ok(v) if v == m as i32);
    if is(CUcomputemode::CU_COMPUTEMODE_PROHIBITED) {
        return unusable(
            total,
            "its compute mode is prohibited: no process may create a context on it".into(),
        );
    }
    match free_memory(device) {
        Ok(free) => ProbedDevice {
            ordinal: ordinal.max(0) as u32,
            total_bytes: total,
            free_bytes: Ok(free as u64),
        },
        Err(e) if is(CUcomputemode::CU_COMPUTEMODE_EXCLUSIVE_PROCESS) => unusable(
            total,
            format!("it is in exclusive-process compute mode and another process holds it ({e})"),
        ),
        Err(e) => unusable(total, format!("no context can be created on it ({e})")),
    }
}

/// The free memory of `device` for this process, measured in its primary context,
/// retained for the measurement only: the driver's free memory and what the
/// device's memory pool holds unused (see [`CudaDevice::memory_info`]).
fn free_memory(
    device: cudarc::driver::sys::CUdevice,
) -> std::result::Result<usize, cudarc::driver::DriverError> {
    use cudarc::driver::{result, sys};
    // SAFETY: `device` was returned by cuDeviceGet. The primary context retained
    // here is released before returning whatever happens in between; it is pushed
    // on this thread's context stack only around cuMemGetInfo and popped right
    // after, so the caller's current context is restored.
    unsafe {
        let context = result::primary_ctx::retain(device)?;
        let measured = sys::cuCtxPushCurrent_v2(context).result().and_then(|()| {
            let info = result::mem_get_info();
            let mut popped = std::ptr::null_mut();
            let pop = sys::cuCtxPopCurrent_v2(&mut popped).result();
            info.and_then(|(free, _)| pop.map(|()| free))
        });
        let released = result::primary_ctx::release(device);
        let free = measured?;
        released?;
        let pooled = match MemoryPool::of(device) {
            Ok(pool) => pool.unused_bytes()?,
            // A device without memory pools.
            Err(e) if e.0 == sys::CUresult::CUDA_ERROR_NOT_SUPPORTED => 0,
            Err(e) => return Err(e),
        };
        Ok(free.saturating_add(usize::try_from(pooled).unwrap_or(usize::MAX)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_driver_count_is_bounded_before_it_sizes_anything() {
        assert_eq!(checked_device_count(-3).unwrap(), 0);
        assert_eq!(checked_device_count(8).unwrap(), 8);
        assert_eq!(checked_device_count(1024).unwrap(), 1024);
        // A driver reporting 2^31 - 1 devices made decompress_to_gpu allocate 8.6 GB.
        let err = checked_device_count(i32::MAX).unwrap_err().to_string();
        assert!(err.contains("reports 2147483647 devices"), "{err}");
    }
}
