#ifndef SKATEROUTE_CMEMORYFILE_H
#define SKATEROUTE_CMEMORYFILE_H
/* The kernel calls a session's map file needs that the Glibc module does not show Swift.
   Declared here rather than through _GNU_SOURCE, which a module built once cannot turn on. */
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

/* memfd_create (glibc 2.27, Linux 3.17): an anonymous file in memory that a long-running
   session maps its map into (MappedFile.detach). */
int memfd_create(const char *name, unsigned int flags);

/* MFD_CLOEXEC: not inherited by a child process. */
static inline int skateroute_memory_file(const char *name) { return memfd_create(name, 1u); }

/* Read leases (fcntl F_SETLEASE, Linux 2.4; MapLease): the kernel holds back any open of the
   file for writing, and any truncation, until the holder lets go (at most
   /proc/sys/fs/lease-break-time seconds) and tells the holder with SIGIO meanwhile. The
   numbers are Linux's F_SETLEASE (1024), F_GETLEASE (1025), F_SETOWN_EX (15), F_OWNER_TID (0). */
struct skateroute_owner_ex { int type; int pid; };

/* SIGIO does nothing when it reaches a thread that does not wait for it (its default ends the
   process): only a lease's signal is expected, and MapLease's own thread waits for those. A
   handler, not SIG_IGN: a handler is reset by exec, so children are not affected. */
static void skateroute_sigio_nothing(int sig) { (void)sig; }
static inline int skateroute_sigio_harmless(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = skateroute_sigio_nothing;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGIO, &sa, 0);
}

/* The calling thread's kernel id (gettid). */
static inline int skateroute_thread_id(void) { return (int)syscall(SYS_gettid); }

/* Blocks SIGIO in the calling thread, so that one sent to it waits for skateroute_wait_sigio. */
static inline int skateroute_block_sigio(void) {
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGIO);
    return pthread_sigmask(SIG_BLOCK, &s, 0);
}

/* Waits until a SIGIO is pending for the calling thread (blocked there): 0, or an error. */
static inline int skateroute_wait_sigio(void) {
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGIO);
    int sig = 0;
    return sigwait(&s, &sig);
}

/* Takes a read lease on fd (opened read-only) and sends its break to thread tid alone: 0, or -1
   with errno (EACCES: not the file's owner; EAGAIN: open for writing somewhere; EINVAL: the file
   system has no leases). F_SETLEASE makes the whole process the owner, so the owner is set after. */
static inline int skateroute_read_lease(int fd, int tid) {
    if (fcntl(fd, 1024, F_RDLCK) != 0) return -1;
    struct skateroute_owner_ex o = { 0, tid };
    if (fcntl(fd, 15, &o) != 0) { fcntl(fd, 1024, F_UNLCK); return -1; }
    return 0;
}

/* Whether fd's lease is being broken (someone waits to write or truncate the file). */
static inline int skateroute_lease_breaking(int fd) { return fcntl(fd, 1025) == F_UNLCK; }

/* Lets the lease go: the writer waiting for it goes on. */
static inline int skateroute_release_lease(int fd) { return fcntl(fd, 1024, F_UNLCK); }
#endif
