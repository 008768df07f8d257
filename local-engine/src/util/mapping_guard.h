#pragma once
// Read-only file mappings whose SIGBUS does not kill the process. A file truncated or rewritten in
// place while it is mapped (a copy over a model in use, a download restarted into the same file)
// loses the pages past its new end, and reading one of them raises SIGBUS. For a guarded mapping
// the handler maps a page of zeros over the faulting page and marks the mapping damaged: the
// computation goes on (on zeros) and its caller reports the file afterwards
// (model::MappedFile::damage_report). A SIGBUS anywhere else gets the action installed before.

#include <cstddef>

namespace engine::util {

// Guards [base, base + size); returns the guard's slot, or -1 when all slots are taken (that
// mapping then keeps the default action).
int guard_mapping(const void* base, std::size_t size);
void unguard_mapping(int slot);
// Whether a SIGBUS inside the slot's mapping was absorbed.
bool mapping_damaged(int slot);
// Whether any guarded mapping ever absorbed one: one atomic load, for the check after every read
// (the per-mapping walk runs only once this is true).
bool any_mapping_damaged();

}  // namespace engine::util
