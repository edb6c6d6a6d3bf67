// Linux scheduling calls Glibc does not wrap (sched_setattr, glibc 2.36) or hides without
// _GNU_SOURCE. One C edge for the per-thread scheduling hints of the frame loop.
#ifndef CLINUXSCHED_SHIM_H
#define CLINUXSCHED_SHIM_H

#ifdef __linux__
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

// The kernel's struct sched_attr (include/uapi/linux/sched/types.h), first version fields.
struct cls_sched_attr {
    uint32_t size;
    uint32_t sched_policy;
    uint64_t sched_flags;
    int32_t sched_nice;
    uint32_t sched_priority;
    uint64_t sched_runtime;
    uint64_t sched_deadline;
    uint64_t sched_period;
    uint32_t sched_util_min;
    uint32_t sched_util_max;
};

/// Asks the scheduler (EEVDF, Linux 6.12 and later) for time slices of `slice_ns` for the
/// calling thread, under SCHED_OTHER at nice `nice`. A short slice means an early virtual
/// deadline: a thread that wakes with one preempts a thread running a longer slice instead
/// of waiting for that slice to end. Unprivileged. Returns 0, or -1 with errno.
static inline int cls_request_slice(uint64_t slice_ns, int32_t nice) {
    struct cls_sched_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.sched_policy = 0; // SCHED_OTHER
    attr.sched_nice = nice;
    attr.sched_runtime = slice_ns;
    return (int)syscall(SYS_sched_setattr, 0, &attr, 0);
}

/// The calling thread's slice request in nanoseconds (0 when none or unknown).
static inline uint64_t cls_current_slice(void) {
    struct cls_sched_attr attr;
    memset(&attr, 0, sizeof attr);
    if (syscall(SYS_sched_getattr, 0, &attr, sizeof attr, 0) != 0) return 0;
    return attr.sched_runtime;
}
#endif

#endif
