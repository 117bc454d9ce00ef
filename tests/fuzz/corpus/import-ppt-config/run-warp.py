kernel_1 = {

	"kernel_name"			: "stencil",
	"num_registers"			: 40,
	"shared_mem_bytes"		: 0,
	"grid_size"			: 2,
	"block_size"			: 1024,
	"cuda_stream_id"		: 0
}

app_kernels_id = [1]