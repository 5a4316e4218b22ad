"""A key's cost on a server it was never run on: the b-tree's and the checkpointer's arithmetic (btree,
checkpoints), fitted to the committed runs that vary index size, memory and the distance between checkpoints
(observations, calibration), and answered for one server's settings (prediction)."""
