"""Workloads: row-key designs, request distributions, YCSB's core workloads and the cost
model. Pure and deterministic: they produce plain operations and consume plain numbers, and
import nothing from the engine, regions or client layers."""

from hsim.workloads.costmodel import CostModel, CostReport, ServerCost, ServerLoad
from hsim.workloads.keys import KEY_DESIGNS, KeyDesign, key_design
from hsim.workloads.ycsb import CORE_WORKLOADS, CoreWorkload, Op, WorkloadSpec

__all__ = [
    "CORE_WORKLOADS",
    "KEY_DESIGNS",
    "CoreWorkload",
    "CostModel",
    "CostReport",
    "KeyDesign",
    "Op",
    "ServerCost",
    "ServerLoad",
    "WorkloadSpec",
    "key_design",
]
