// Through a `macro_rules!` list, a `$t:ty` fragment arrives in an invisible group: the macro
// still sees the `impl Trait` and says so (rustc gave five errors of its own, none of the macro's).
use cuda_entry::cuda_entry;

macro_rules! declare {
    ($name:ident($arg:ident: $t:ty)) => {
        #[cuda_entry(symbol = "cuMemFree", version = 3020)]
        pub unsafe extern "C" fn $name($arg: $t) -> i32;
    };
}

declare!(mem_free(dptr: impl Copy));

fn main() {}
