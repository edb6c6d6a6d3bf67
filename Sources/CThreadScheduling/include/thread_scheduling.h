// The calling thread's time slice under Linux's EEVDF scheduler (6.12 and later), through
// sched_setattr(2): glibc before 2.41 has no wrapper, and syscall(2) is variadic, which
// Swift cannot call. A C target of its own for that one call.
#ifndef THREAD_SCHEDULING_H
#define THREAD_SCHEDULING_H

/// Asks for a time slice of `nanoseconds` for the calling thread, keeping its policy's
/// class (SCHED_OTHER) and nice value; threads it creates afterwards start with the
/// default slice (SCHED_FLAG_RESET_ON_FORK). Returns the slice the kernel then reports
/// (it clamps to 0.1-100 ms; a kernel without custom slices reports its default or 0), or
/// -errno when the call failed. Not for a thread in another class (batch, idle, real-time):
/// returns -EINVAL without changing it.
long long thread_scheduling_request_slice(unsigned long long nanoseconds);

/// The calling thread's slice as the kernel reports it (sched_getattr's sched_runtime for
/// a fair-class thread), or -errno.
long long thread_scheduling_slice(void);

#endif
