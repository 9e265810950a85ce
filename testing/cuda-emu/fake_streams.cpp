// The fake CUDA driver's streams and events (see fake_driver.cpp).
//
// By default a stream's work runs when it is queued. With GPUFHE_FAKE_CUDA_DEFERRED=1
// the asynchronous calls (launches, async copies, memsets and frees) queue their
// work on the stream instead, and it runs only when something waits for it: a
// synchronization of the stream, the context or an event recorded after it, another
// stream's queued wait on such an event (which runs it when that stream gets there),
// or a synchronous memory call (which, like the legacy default stream, first runs
// every stream of the context). So work of two streams runs in an order that only
// the program's waits decide, and a missing wait shows: a buffer freed before a
// reader on another stream ran makes that launch fail with ILLEGAL_ADDRESS, a write
// queued after a read may run before it.
#include "fake_driver.h"

namespace fakecuda {
namespace {

// Runs the work queued on `stream` up to `sequence`; returns the stream's first error.
// Once the device hit a sticky error, its work fails with it instead of running.
CUresult run_until(CUstream stream, unsigned long long sequence) {
  const std::vector<CUresult> &sticky = driver().sticky;
  while (!stream->queue.empty() && stream->queue.front().sequence <= sequence) {
    const std::function<CUresult()> work = std::move(stream->queue.front().run);
    stream->queue.pop_front();
    const CUresult failed = sticky[stream->context->device];
    const CUresult r = failed != CUDA_SUCCESS ? failed : work();
    if (r != CUDA_SUCCESS && stream->error == CUDA_SUCCESS) stream->error = r;
  }
  return stream->error;
}

constexpr unsigned long long EVERYTHING = ~0ull;

}  // namespace

CUresult submit(Driver &d, CUstream stream, std::function<CUresult()> work) {
  if (!d.deferred) return work();
  if (stream == nullptr) {
    // The legacy default stream waits for every stream of the context.
    if (const CUresult r = drain(d, current_context); r != CUDA_SUCCESS) return r;
    return work();
  }
  stream->queue.push_back(FakeWork{++d.sequence, std::move(work)});
  return CUDA_SUCCESS;
}

CUresult drain(Driver &d, CUctx_st *context) {
  CUresult first = CUDA_SUCCESS;
  // Over a copy of the set, which the loop must not depend on staying unchanged.
  const std::vector<const void *> streams(d.streams.begin(), d.streams.end());
  for (const void *p : streams) {
    auto *s = const_cast<CUstream_st *>(static_cast<const CUstream_st *>(p));
    if (context != nullptr && s->context != context) continue;
    const CUresult r = run_until(s, EVERYTHING);
    if (first == CUDA_SUCCESS) first = r;
  }
  return first;
}

}  // namespace fakecuda

using namespace fakecuda;

namespace {

// Runs what `event` waits for (deferred mode); its stream's error if any.
CUresult complete(CUevent event) {
  if (event->stream == nullptr) return CUDA_SUCCESS;
  return run_until(event->stream, event->sequence);
}

}  // namespace

CUresult cuCtxSynchronize(void) {
  ENTER();
  CHECK(current_context != nullptr, CUDA_ERROR_INVALID_CONTEXT, "no current context");
  CHECK_USABLE(current_context);
  const CUresult r = drain(d, current_context);
  release_above_threshold(d, current_context);
  return r;
}

// ---- Streams and events ----

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags) {
  ENTER();
  (void)Flags;
  CHECK(phStream != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(current_context != nullptr, CUDA_ERROR_INVALID_CONTEXT, "no current context");
  CHECK_USABLE(current_context);
  *phStream = new CUstream_st{current_context};
  d.streams.insert(*phStream);
  return CUDA_SUCCESS;
}

// A destroyed stream still finishes its work (which runs now, in deferred mode).
CUresult cuStreamDestroy(CUstream hStream) {
  ENTER();
  CHECK(d.streams.count(hStream) == 1, CUDA_ERROR_INVALID_HANDLE, "unknown stream");
  CHECK_USABLE(hStream->context);
  run_until(hStream, EVERYTHING);
  for (const void *e : d.events) {
    auto *event = const_cast<CUevent_st *>(static_cast<const CUevent_st *>(e));
    if (event->stream == hStream) event->stream = nullptr;
  }
  d.streams.erase(hStream);
  delete hStream;
  return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream hStream) {
  ENTER();
  if (const CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  CHECK_USABLE(stream_context(d, hStream));
  const CUresult r = hStream == nullptr ? drain(d, current_context) : run_until(hStream, EVERYTHING);
  release_above_threshold(d, stream_context(d, hStream));
  return r;
}

CUresult cuStreamQuery(CUstream hStream) {
  ENTER();
  if (const CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  CHECK_USABLE(stream_context(d, hStream));
  if (hStream == nullptr) return drain(d, current_context);
  return run_until(hStream, EVERYTHING);
}

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags) {
  ENTER();
  (void)Flags;
  CHECK(d.events.count(hEvent), CUDA_ERROR_INVALID_HANDLE, "unknown event");
  if (const CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  CHECK_USABLE(stream_context(d, hStream));
  // What the event marks now, not when the wait runs (it may be recorded again).
  CUstream_st *stream = hEvent->stream;
  const unsigned long long sequence = hEvent->sequence;
  if (stream == nullptr || stream == hStream) return CUDA_SUCCESS;
  // The waiting stream fails with the work it waited for. A stream destroyed since
  // ran all its work then (a new stream at its address has only later work).
  return submit(d, hStream, [&d, stream, sequence] {
    return d.streams.count(stream) ? run_until(stream, sequence) : CUDA_SUCCESS;
  });
}

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags) {
  ENTER();
  (void)Flags;
  CHECK(phEvent != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(current_context != nullptr, CUDA_ERROR_INVALID_CONTEXT, "no current context");
  CHECK_USABLE(current_context);
  *phEvent = new CUevent_st{current_context};
  d.events.insert(*phEvent);
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream) {
  ENTER();
  CHECK(d.events.count(hEvent), CUDA_ERROR_INVALID_HANDLE, "unknown event");
  if (CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  CHECK_USABLE(stream_context(d, hStream));
  CHECK(stream_context(d, hStream) == hEvent->context, CUDA_ERROR_INVALID_HANDLE,
        "event and stream of different contexts");
  hEvent->recorded = true;
  hEvent->time = std::chrono::steady_clock::now();
  if (d.deferred && hStream != nullptr) {
    hEvent->stream = hStream;
    hEvent->sequence = d.sequence;  // everything queued so far
  } else {
    if (d.deferred) drain(d, current_context);
    hEvent->stream = nullptr;
  }
  return CUDA_SUCCESS;
}

CUresult cuEventQuery(CUevent hEvent) {
  ENTER();
  CHECK(d.events.count(hEvent), CUDA_ERROR_INVALID_HANDLE, "unknown event");
  CHECK_USABLE(hEvent->context);
  return complete(hEvent);
}

CUresult cuEventSynchronize(CUevent hEvent) {
  ENTER();
  CHECK(d.events.count(hEvent), CUDA_ERROR_INVALID_HANDLE, "unknown event");
  CHECK_USABLE(hEvent->context);
  const CUresult r = complete(hEvent);
  release_above_threshold(d, hEvent->context);
  return r;
}

CUresult cuEventDestroy(CUevent hEvent) {
  ENTER();
  CHECK(d.events.count(hEvent), CUDA_ERROR_INVALID_HANDLE, "unknown event");
  CHECK_USABLE(hEvent->context);
  d.events.erase(hEvent);
  delete hEvent;
  return CUDA_SUCCESS;
}

CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd) {
  ENTER();
  CHECK(pMilliseconds != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(d.events.count(hStart) && d.events.count(hEnd), CUDA_ERROR_INVALID_HANDLE,
        "unknown event");
  CHECK_USABLE(hStart->context);
  CHECK(hStart->recorded && hEnd->recorded, CUDA_ERROR_INVALID_HANDLE, "event not recorded");
  *pMilliseconds = std::chrono::duration<float, std::milli>(hEnd->time - hStart->time).count();
  return CUDA_SUCCESS;
}
