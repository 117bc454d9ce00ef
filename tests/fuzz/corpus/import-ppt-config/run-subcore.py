kernel_1 = {

	"kernel_name"			: "saxpy",
	"num_registers"			: 12,
	"shared_mem_bytes"		: 0,
	"grid_size"			: 2,
	"block_size"			: 128,
	"cuda_stream_id"		: 0
}

app_kernels_id = [1]