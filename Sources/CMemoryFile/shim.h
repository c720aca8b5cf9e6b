#ifndef SKATEROUTE_CMEMORYFILE_H
#define SKATEROUTE_CMEMORYFILE_H
/* memfd_create (glibc 2.27, Linux 3.17), which the Glibc module does not show Swift: an anonymous
   file in memory that a long-running session maps its map into (MappedFile.detach). Declared
   here rather than through _GNU_SOURCE, which a module built once cannot turn on. */
int memfd_create(const char *name, unsigned int flags);

/* MFD_CLOEXEC: not inherited by a child process. */
static inline int skateroute_memory_file(const char *name) { return memfd_create(name, 1u); }
#endif
