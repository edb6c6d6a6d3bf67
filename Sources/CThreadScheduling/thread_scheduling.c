// sched_setattr(2) and sched_getattr(2) for the calling thread. The kernel's struct
// (linux/sched/types.h, version 1 layout) is spelled out here: that header redefines
// glibc's sched_param, and glibc 2.36 declares no sched_attr of its own.
#define _GNU_SOURCE
#include "thread_scheduling.h"

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SCHED_FLAG_RESET_ON_FORK 0x01

struct sched_attr {
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

static int get_attributes(struct sched_attr *attributes) {
    memset(attributes, 0, sizeof *attributes);
    return (int)syscall(SYS_sched_getattr, 0, attributes, (unsigned int)sizeof *attributes, 0U);
}

long long thread_scheduling_slice(void) {
    struct sched_attr attributes;
    if (get_attributes(&attributes) != 0) return -errno;
    return (long long)attributes.sched_runtime;
}

long long thread_scheduling_request_slice(unsigned long long nanoseconds) {
    struct sched_attr attributes;
    if (get_attributes(&attributes) != 0) return -errno;
    if (attributes.sched_policy != SCHED_OTHER) return -EINVAL;
    attributes.size = sizeof attributes;
    attributes.sched_flags = SCHED_FLAG_RESET_ON_FORK;
    attributes.sched_runtime = nanoseconds;
    attributes.sched_deadline = 0;
    attributes.sched_period = 0;
    if (syscall(SYS_sched_setattr, 0, &attributes, 0U) != 0) return -errno;
    return thread_scheduling_slice();
}
