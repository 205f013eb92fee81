import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useNavigate } from 'react-router-dom';
import { AuthProvider, useAuth } from './auth.tsx';
import { Layout } from './components/Layout.tsx';
import { RequireAdmin, RequireAuth } from './components/RouteGuards.tsx';
import { setUnauthorizedHandler } from './lib/api.ts';
import { FileDetail } from './pages/FileDetail.tsx';
import { FileGrouping } from './pages/FileGrouping.tsx';
import { FileSearch } from './pages/FileSearch.tsx';
import { UploadFile, UploadedFiles } from './pages/FileUploadList.tsx';
import { ForgotPassword } from './pages/ForgotPassword.tsx';
import { GroupResult } from './pages/GroupResult.tsx';
import { Home } from './pages/Home.tsx';
import { Instructions } from './pages/Instructions.tsx';
import { Locations } from './pages/Locations.tsx';
import { LocationEntrance } from './pages/LocationEntrance.tsx';
import { HiveHistory } from './pages/HiveHistory.tsx';
import { Login } from './pages/Login.tsx';
import { Plans } from './pages/Plans.tsx';
import { Register } from './pages/Register.tsx';
import { ResetPassword } from './pages/ResetPassword.tsx';
import { Cancel, Contact, NotFound, Success, VideoPlayer } from './pages/Simple.tsx';
import { UsersList } from './pages/UsersList.tsx';

/** Any 401 clears the session and goes to /login (decisions section 1). */
function UnauthorizedRedirect() {
  const navigate = useNavigate();
  const auth = useAuth();
  useEffect(() => {
    setUnauthorizedHandler(() => {
      auth.drop();
      void navigate('/login', { replace: true });
    });
  }, [navigate, auth]);
  return null;
}

function RootRedirect() {
  const auth = useAuth();
  if (!auth.verified && !auth.isAuthenticated) return null;
  return <Navigate to={auth.isAuthenticated ? '/home' : '/login'} replace />;
}

const guard = (node: ReactNode) => <RequireAuth>{node}</RequireAuth>;
const admin = (node: ReactNode) => (
  <RequireAuth>
    <RequireAdmin>{node}</RequireAdmin>
  </RequireAuth>
);

export function App() {
  return (
    <BrowserRouter>
      <AuthProvider>
        <UnauthorizedRedirect />
        <Routes>
          <Route element={<Layout />}>
            <Route path="/" element={<RootRedirect />} />
            <Route path="/home" element={guard(<Home />)} />
            <Route path="/login" element={<Login />} />
            <Route path="/register" element={<Register />} />
            <Route path="/forgot-password" element={<ForgotPassword />} />
            <Route path="/reset-password" element={<ResetPassword />} />
            <Route path="/instructions" element={<Instructions />} />
            <Route path="/beeplans" element={<Plans />} />
            <Route path="/success" element={<Success />} />
            <Route path="/cancel" element={<Cancel />} />
            <Route path="/upload-file" element={guard(<UploadFile />)} />
            <Route path="/file-upload-list" element={guard(<UploadedFiles />)} />
            <Route path="/files/:id" element={guard(<FileDetail />)} />
            <Route path="/locations" element={guard(<Locations />)} />
            <Route path="/locations/:id/entrance" element={guard(<LocationEntrance />)} />
            <Route path="/locations/:id/history" element={guard(<HiveHistory />)} />
            <Route path="/video-player" element={<VideoPlayer />} />
            <Route path="/contactus" element={guard(<Contact />)} />
            <Route path="/csv-file-search" element={admin(<FileSearch />)} />
            <Route path="/users-list" element={admin(<UsersList />)} />
            <Route path="/file-grouping" element={guard(<FileGrouping />)} />
            <Route path="/file-grouping/result" element={guard(<GroupResult />)} />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </AuthProvider>
    </BrowserRouter>
  );
}
