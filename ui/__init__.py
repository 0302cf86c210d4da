"""Streamlit-side rendering shared by the pages (the core in toolcall/ never imports streamlit)."""
