"""Streamlit-side shared rendering (the pages import from here)."""
